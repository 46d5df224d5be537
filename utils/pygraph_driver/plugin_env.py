"""PYGRAPH_PLUGIN_ARGS: plugin options for a build whose command lines stay unchanged.

Contract: the variable's words (split as a shell splits them, so a value with
spaces can be quoted: 'allow=f(unsigned int)'), each NAME or NAME=VALUE, become
-fplugin-arg-pygraph-NAME[=VALUE] on every command that loads the plugin,
after the command's own options (the variable decides where both set one).
The plugin checks names and values (an unknown one is clang's error naming
it); the driver refuses only a word that is not NAME[=VALUE].  `disable`
makes the compile clang's own: the plugin does nothing, no remark record is
saved, and the runtime, linked as always, adds nothing to a program that
does not call it (see layout.runtime_link_flags).
"""
import os
import re
import shlex

from .errors import DriverError

ENV = "PYGRAPH_PLUGIN_ARGS"
PREFIX = "-fplugin-arg-pygraph-"
DISABLE = PREFIX + "disable"
_NAME = re.compile(r"[a-z][a-z0-9-]*")


def flags():
    """The plugin flags the variable asks for (none when unset or blank)."""
    text = os.environ.get(ENV, "")
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise DriverError("%s=%s: %s" % (ENV, text, e)) from None
    out = []
    for word in words:
        if not _NAME.fullmatch(word.split("=", 1)[0]):
            raise DriverError("%s: '%s' is not a plugin option NAME or NAME=VALUE "
                              "(e.g. disable, min-launches=3)" % (ENV, word))
        out.append(PREFIX + word)
    return out


def disabled(plugin_args):
    return DISABLE in plugin_args


def disabled_by():
    """How the summary line names what disabled the plugin."""
    return ENV + "=disable" if DISABLE in flags() else DISABLE
