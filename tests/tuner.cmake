# SPDX-License-Identifier: MIT
# Tests of the Texel tuner (issue 6).
if(TARGET hansu_tuner)
  hansu_add_test(test_tuner_optimizer SOURCES test_tuner_optimizer.c LIBS hansu_tuner TIMEOUT 120)
  hansu_add_test(test_tuner_data SOURCES test_tuner_data.c LIBS hansu_tuner TIMEOUT 180)
  # It runs hansu-tune.
  add_dependencies(test_tuner_data hansu-tune)
endif()
