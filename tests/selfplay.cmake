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
