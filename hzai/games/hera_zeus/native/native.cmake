# Hera and Zeus' compile options, included by CMakeLists.txt. The learned models'
# arithmetic (hz_learn.cpp, hzai/native/learn/mlp.hpp): -O3 lets the compiler vectorize
# the layers' loops fully (docs/learning.md).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/hz_learn.cpp PROPERTIES COMPILE_OPTIONS "-O3")
