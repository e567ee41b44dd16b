# SPDX-License-Identifier: MIT
# The search seen through self-play (issue 10): double-pass games lost by the first passer, at
# most 1 % at 300 nodes (the issue's settings, a few seconds). At 2000 nodes (label `slow`, about
# a minute) 7 of 300 such games remain (2.3 %), every one in a position the passer's search had
# already scored as a decided loss (it took the points loss over a longer lost game), so there
# only "no pass that loses unseen" is required.
if(TARGET hansu_runner)
  hansu_add_test(test_pass_selfplay SOURCES test_pass_selfplay.c LIBS hansu_runner LABELS nosan
                 TIMEOUT 300)
  # The 300-game statistic is a search result, not a memory check, and takes ~2 minutes under
  # the sanitizers (over its timeout on a loaded 2-core machine): the Sanitize build leaves it
  # out (label nosan) and runs the same path on 30 games with only the "no pass that loses
  # unseen" requirement (test_pass_selfplay_short, every build).
  add_test(NAME test_pass_selfplay_short COMMAND test_pass_selfplay 30 300 100)
  set_tests_properties(test_pass_selfplay_short PROPERTIES TIMEOUT 300)
  add_test(NAME test_pass_selfplay_2000 COMMAND test_pass_selfplay 300 2000 100)
  set_tests_properties(test_pass_selfplay_2000 PROPERTIES TIMEOUT 900 LABELS slow)
endif()
