# atoms_add_boost_test(TARGET PREFIX [TIMEOUT seconds] [LABELS label...])
#
# One ctest entry per top-level Boost.Test suite (or top-level test case) of TARGET, named
# PREFIX.<suite>, so `ctest -j2` spreads a long test binary over both cores and `ctest -R` picks one
# suite. The entries are read from the binary after each build (`--list_content`), so a suite added
# to the sources needs no CMake change. A binary not built yet shows as PREFIX_NOT_BUILT, which fails.
# TIMEOUT defaults to 300 s: the slowest suite takes about 80 s under the sanitizers on 2 cores, so
# an entry past 300 s hangs, and CI should say so in minutes, not a quarter of an hour.
set(ATOMS_BOOST_LIST_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/BoostTestList.cmake)

function(atoms_add_boost_test target prefix)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  string(REPLACE ";" "," labels "${ARG_LABELS}")
  set(listed ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake)
  set(stub ${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${target}> -D PREFIX=${prefix}
            -D OUT=${listed} -D TIMEOUT=${ARG_TIMEOUT} -D LABELS=${labels}
            -P ${ATOMS_BOOST_LIST_SCRIPT}
    BYPRODUCTS ${listed}
    VERBATIM)
  file(WRITE ${stub}
    "if(EXISTS [=[${listed}]=])\n"
    "  include([=[${listed}]=])\n"
    "else()\n"
    "  add_test([=[${prefix}_NOT_BUILT]=] [=[${prefix}_NOT_BUILT]=])\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${stub})
endfunction()
