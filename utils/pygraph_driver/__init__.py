"""pygraph's compiler drivers: pygraph-nvcc (nvcc command lines) and pygraph-clang++.

Both run clang++-22 with the pygraph plugin and link the pygraph runtime; see
docs/user-guide.md, "Building with Make and nvcc flags".  Standard library only.
"""
