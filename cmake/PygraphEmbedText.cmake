# PygraphEmbedText.cmake - a text file as a C string constant, run as a
# script: cmake -DIN=<text file> -DOUT=<.c file> -DSYMBOL=<name> -P this.
# Writes `const char <SYMBOL>[] = "...";`, one string literal per line of
# IN (backslashes and quotes escaped, newlines kept), so the runtime
# carries its device code (PTX) with no file beside it.
if(NOT DEFINED IN OR NOT DEFINED OUT OR NOT DEFINED SYMBOL)
  message(FATAL_ERROR "PygraphEmbedText.cmake: IN, OUT and SYMBOL must be given")
endif()
file(READ "${IN}" text)
if(text STREQUAL "")
  message(FATAL_ERROR "PygraphEmbedText.cmake: ${IN} is empty")
endif()
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\t" "\\t" text "${text}")
string(REPLACE "\n" "\\n\"\n    \"" text "${text}")
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by cmake/PygraphEmbedText.cmake: do not edit. */\n"
  "const char ${SYMBOL}[] =\n    \"${text}\";\n")
file(RENAME "${OUT}.tmp" "${OUT}")
