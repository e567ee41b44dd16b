# SPDX-License-Identifier: MIT
# Tests of the Texel tuner (issue 6).
if(TARGET hansu_tuner)
  hansu_add_test(test_tuner_optimizer SOURCES test_tuner_optimizer.c LIBS hansu_tuner TIMEOUT 120)
  hansu_add_test(test_tuner_data SOURCES test_tuner_data.c LIBS hansu_tuner TIMEOUT 180)
  add_dependencies(test_tuner_data hansu-tune) # it runs hansu-tune
  if(TARGET hansu-selfplay)
    add_dependencies(test_tuner_data hansu-selfplay) # and hansu-selfplay --variant xiangqi
  endif()
  # Configures and builds a second engine with an emitted header: slow (15-60 s).
  hansu_add_test(test_tuner_roundtrip SOURCES test_tuner_roundtrip.c LIBS hansu_tuner
                 LABELS slow TIMEOUT 900)
  add_dependencies(test_tuner_roundtrip hansu-tune)
  target_compile_definitions(test_tuner_roundtrip PRIVATE
    HANSU_CMAKE="${CMAKE_COMMAND}" HANSU_GENERATOR="${CMAKE_GENERATOR}")
endif()
# scripts/train: the data window in positions, the confirmed verdicts, the fixed-length Elo
# matches, the gauntlet and the report's Elo per CPU-hour (issue 12); the matches are played
# by hansu-match between fake engines.
if(EXISTS /usr/bin/python3)
  set(train_loop_engines)
  if(TARGET fake_engine AND TARGET hansu-match)
    set(train_loop_engines $<TARGET_FILE:fake_engine> $<TARGET_FILE:hansu-match>)
  endif()
  add_test(NAME train_loop_py COMMAND /usr/bin/python3
           ${CMAKE_CURRENT_SOURCE_DIR}/test_train_loop.py ${CMAKE_CURRENT_BINARY_DIR}/train_loop.d
           ${train_loop_engines})
  set_tests_properties(train_loop_py PROPERTIES TIMEOUT 300)
  # scripts/train's command line: the run folder's lock, every setting checked before the
  # first step (new and resumed runs), one-line errors for bad state and folders (issue 23).
  add_test(NAME train_cli_py COMMAND /usr/bin/python3
           ${CMAKE_CURRENT_SOURCE_DIR}/test_train_cli.py ${CMAKE_CURRENT_BINARY_DIR}/train_cli.d)
  set_tests_properties(train_cli_py PROPERTIES TIMEOUT 120)
endif()
