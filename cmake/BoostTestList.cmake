# Run by atoms_add_boost_test after a test binary is built: writes OUT, the ctest entries of the
# binary EXE's top-level suites and cases (cmake/BoostTests.cmake).
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${EXE} --list_content
  RESULT_VARIABLE rc OUTPUT_VARIABLE listing_out ERROR_VARIABLE listing)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --list_content failed (${rc}): ${listing}")
endif()
string(REPLACE "," ";" labels "${LABELS}")
string(REPLACE "\n" ";" lines "${listing}")
set(content "")
set(count 0)
foreach(line IN LISTS lines)
  # Top-level entries start in column 0; a trailing * marks an enabled one.
  if(line MATCHES "^([A-Za-z_][A-Za-z0-9_]*)\\*$")
    set(name ${CMAKE_MATCH_1})
    string(APPEND content
      "add_test([=[${PREFIX}.${name}]=] [=[${EXE}]=] [=[--run_test=${name}]=] --log_level=test_suite)\n"
      "set_tests_properties([=[${PREFIX}.${name}]=] PROPERTIES TIMEOUT ${TIMEOUT}")
    if(labels)
      string(APPEND content " LABELS [=[${labels}]=]")
    endif()
    string(APPEND content ")\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${EXE} --list_content lists no test suite")
endif()
file(WRITE ${OUT} "${content}")
