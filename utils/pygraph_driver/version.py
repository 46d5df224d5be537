"""--pygraph-version: what the drivers would use, so a wrong plugin or toolkit is seen at once."""
import os
import subprocess

from . import arch


def version_text(prog, lay):
    try:
        clang = subprocess.run([lay.clang, "--version"], capture_output=True, text=True,
                               timeout=60).stdout.splitlines()[:1]
    except (OSError, subprocess.SubprocessError):
        clang = []
    rows = [("%s (pygraph %s)" % (prog, lay.version), ""),
            ("plugin", lay.plugin + ("" if os.path.isfile(lay.plugin) else "  (missing)")),
            ("runtime", os.path.join(lay.runtime_dir, "libpygraph_rt.a")),
            ("clang", "%s (%s)" % (lay.clang, clang[0] if clang else "not found")),
            ("CUDA", lay.cuda),
            ("layout", lay.origin),
            ("default GPU architecture", ",".join(arch.default_archs()))]
    return "\n".join(rows[0][:1] + tuple("  %-27s%s" % (k + ":", v) for k, v in rows[1:]))
