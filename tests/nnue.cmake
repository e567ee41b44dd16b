# SPDX-License-Identifier: MIT
# NNUE (issue 26): inference and the .nnue file (test_nnue), the trainer hansu-nnue
# (test_nnue_train).
hansu_add_test(test_nnue SOURCES test_nnue.c TIMEOUT 120)
