# SPDX-License-Identifier: MIT
# A run split into parts (issue 15): --part I/K side by side, and mpirun -np 2 in an MPI build
# (label `mpi`: scripts/test.sh runs them in build-mpi/), against the one-process run; there
# also hansu-tune under mpirun -np 2 against one process with the same total threads, and
# hansu-match over 2 ranks against one process.
if(TARGET hansu-selfplay AND EXISTS /usr/bin/python3)
  execute_process(COMMAND /usr/bin/python3 -c "import h5py, numpy"
                  RESULT_VARIABLE hansu_no_h5py_cluster OUTPUT_QUIET ERROR_QUIET)
  if(hansu_no_h5py_cluster EQUAL 0)
    add_test(NAME cluster_selfplay_parts
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cluster_selfplay.sh
                     $<TARGET_FILE:hansu-selfplay> ${CMAKE_CURRENT_BINARY_DIR}/cluster_parts.d)
    set_tests_properties(cluster_selfplay_parts PROPERTIES TIMEOUT 300)
    if(HANSU_MPI AND TARGET hansu-tune)
      add_test(NAME cluster_selfplay_mpi
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cluster_selfplay.sh
                       $<TARGET_FILE:hansu-selfplay> ${CMAKE_CURRENT_BINARY_DIR}/cluster_mpi.d
                       ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:hansu-tune>)
      set_tests_properties(cluster_selfplay_mpi PROPERTIES TIMEOUT 300 LABELS mpi)
      # A rank waiting for another sleeps instead of polling (its CPU time over the wait).
      add_executable(test_cluster_wait test_cluster_wait.c)
      target_link_libraries(test_cluster_wait PRIVATE hansu_cluster)
      add_test(NAME test_cluster_wait
               COMMAND ${MPIEXEC_EXECUTABLE} --allow-run-as-root -np 2
                       $<TARGET_FILE:test_cluster_wait>)
      set_tests_properties(test_cluster_wait PROPERTIES TIMEOUT 60 LABELS mpi)
      # scripts/train's [cluster] launcher: its self-play and tuning steps over 2 ranks.
      add_test(NAME train_cluster_py
               COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_train_cluster.py
                       ${PROJECT_BINARY_DIR} ${MPIEXEC_EXECUTABLE}
                       ${CMAKE_CURRENT_BINARY_DIR}/train_cluster.d)
      set_tests_properties(train_cluster_py PROPERTIES TIMEOUT 300 LABELS mpi)
      # hansu-match over 2 ranks: one process's totals and games, SPRT stop, kill + --resume.
      if(TARGET hansu-match AND TARGET hansu) # fake_engine: tests/match.cmake, read later
        add_test(NAME cluster_match_mpi
                 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cluster_match.sh
                         $<TARGET_FILE:hansu-match> $<TARGET_FILE:hansu> $<TARGET_FILE:fake_engine>
                         ${MPIEXEC_EXECUTABLE} ${CMAKE_CURRENT_BINARY_DIR}/cluster_match.d)
        set_tests_properties(cluster_match_mpi PROPERTIES TIMEOUT 300 LABELS mpi)
      endif()
    endif()
  endif()
endif()

# Bad --part values are refused by name before any work.
if(TARGET hansu-selfplay)
  foreach(case
      "zero|0/2|--part 0/2: I must be in 1\\.\\.2"
      "past|3/2|--part 3/2: I must be in 1\\.\\.2"
      "no_parts|1/0|--part 1/0: K must be in 1\\.\\."
      "junk|x|--part: 'x' is not I/K"
      "half|1/|--part: '1/' is not I/K"
      "many|1/9|--part 1/9: more parts than games \\(--games 8\\): parts 9\\.\\.9")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 arg)
    list(GET parts 2 want)
    add_test(NAME runner_cli_part_${name}
             COMMAND hansu-selfplay --games 8 --part ${arg} --out ${CMAKE_CURRENT_BINARY_DIR}/part_cli.d)
    set_tests_properties(runner_cli_part_${name} PROPERTIES TIMEOUT 20
      PASS_REGULAR_EXPRESSION "${want}" FAIL_REGULAR_EXPRESSION "measuring|games played")
  endforeach()
endif()
