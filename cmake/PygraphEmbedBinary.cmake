# PygraphEmbedBinary.cmake - a binary file as a C byte array, run as a
# script: cmake -DIN=<file> -DOUT=<.c file> -DSYMBOL=<name> -P this.
# Writes `const unsigned char <SYMBOL>[]` and `const unsigned long
# <SYMBOL>_size` (the runtime's device code as a fat binary, with no file
# beside it).  An empty or absent IN gives a one-byte array of size 0.
if(NOT DEFINED IN OR NOT DEFINED OUT OR NOT DEFINED SYMBOL)
  message(FATAL_ERROR "PygraphEmbedBinary.cmake: IN, OUT and SYMBOL must be given")
endif()
set(hex "")
if(EXISTS "${IN}")
  file(READ "${IN}" hex HEX)
endif()
string(LENGTH "${hex}" digits)
math(EXPR size "${digits} / 2")
if(size EQUAL 0)
  set(bytes "0")
else()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n  " bytes "${bytes}")
endif()
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by cmake/PygraphEmbedBinary.cmake: do not edit. */\n"
  "_Alignas(16) const unsigned char ${SYMBOL}[] = {\n  ${bytes}};\n"
  "const unsigned long ${SYMBOL}_size = ${size}ul;\n")
file(RENAME "${OUT}.tmp" "${OUT}")
