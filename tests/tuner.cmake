# SPDX-License-Identifier: MIT
# Tests of the Texel tuner (issue 6).
if(TARGET hansu_tuner)
  hansu_add_test(test_tuner_optimizer SOURCES test_tuner_optimizer.c LIBS hansu_tuner TIMEOUT 120)
endif()
