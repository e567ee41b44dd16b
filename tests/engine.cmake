# SPDX-License-Identifier: MIT
# Tests of the engine (issue 3): evaluation trace parity and mirror symmetry, the weights
# header printer, search (mates, game ends, reproducibility, legality), UCI scripts, bench.
hansu_add_test(test_eval SOURCES test_eval.c TIMEOUT 120)
foreach(t test_search test_see test_uci test_bench)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
    hansu_add_test(${t} SOURCES ${t}.c TIMEOUT 300)
  endif()
endforeach()
if(HANSU_EVAL_WEIGHTS)
  # Another weights header: the bench signature and the header layout check do not apply.
  foreach(t test_eval test_bench)
    if(TARGET ${t})
      target_compile_definitions(${t} PRIVATE HANSU_CUSTOM_WEIGHTS=1)
    endif()
  endforeach()
endif()
hansu_add_test(test_xiangqi_search SOURCES test_xiangqi_search.c TIMEOUT 300)
