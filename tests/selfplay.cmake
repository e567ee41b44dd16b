# SPDX-License-Identifier: MIT
# Tests of the self-play runner (issue 4): packed board codec, HDF5 store round trip and
# failure handling, and the runner itself (determinism, pairings, resume, kill -9, disk full).
if(TARGET hansu_data)
  add_library(hansu_selfplay_testutil STATIC selfplay_util.c)
  target_link_libraries(hansu_selfplay_testutil PUBLIC hansu_data)

  hansu_add_test(test_codec SOURCES test_codec.c LIBS hansu_selfplay_testutil TIMEOUT 60)
  hansu_add_test(test_h5store SOURCES test_h5store.c LIBS hansu_selfplay_testutil TIMEOUT 120)
endif()
if(TARGET hansu-selfplay AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_runner.c)
  hansu_add_test(test_runner SOURCES test_runner.c LIBS hansu_selfplay_testutil hansu_runner
                 TIMEOUT 300)
  add_dependencies(test_runner hansu-selfplay)
endif()

# The Python decoder against the C one, when Debian's python3-h5py is there.
if(TARGET hansu-selfplay AND EXISTS /usr/bin/python3)
  execute_process(COMMAND /usr/bin/python3 -c "import h5py, numpy"
                  RESULT_VARIABLE hansu_no_h5py OUTPUT_QUIET ERROR_QUIET)
  if(hansu_no_h5py EQUAL 0)
    add_test(NAME test_board_decode_py
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_board_decode.py
                     $<TARGET_FILE:hansu-selfplay> ${CMAKE_CURRENT_BINARY_DIR}/test_board_decode.d)
    set_tests_properties(test_board_decode_py PROPERTIES TIMEOUT 120)
  endif()
endif()
