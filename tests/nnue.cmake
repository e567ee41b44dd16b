# SPDX-License-Identifier: MIT
# NNUE (issue 26): inference and the .nnue file (test_nnue), the trainer hansu-nnue
# (test_nnue_train).
hansu_add_test(test_nnue SOURCES test_nnue.c TIMEOUT 120)
if(TARGET hansu_nnue_train)
  hansu_add_test(test_nnue_train SOURCES test_nnue_train.c LIBS hansu_nnue_train TIMEOUT 300)
  add_dependencies(test_nnue_train hansu-nnue hansu-selfplay) # it runs both
endif()
