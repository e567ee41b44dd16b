# SPDX-License-Identifier: MIT
# Tests of the self-play runner (issue 4): packed board codec, HDF5 store round trip and
# failure handling, and the runner itself (determinism, pairings, resume, kill -9, disk full).
if(TARGET hansu_store)
  add_library(hansu_selfplay_testutil STATIC selfplay_util.c)
  target_link_libraries(hansu_selfplay_testutil PUBLIC hansu_store)

  hansu_add_test(test_codec SOURCES test_codec.c LIBS hansu_selfplay_testutil TIMEOUT 60)
  hansu_add_test(test_h5store SOURCES test_h5store.c LIBS hansu_selfplay_testutil TIMEOUT 120)
endif()
if(TARGET hansu-selfplay AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_runner.c)
  hansu_add_test(test_runner SOURCES test_runner.c LIBS hansu_selfplay_testutil hansu_runner
                 TIMEOUT 300)
  add_dependencies(test_runner hansu-selfplay)
endif()

# Seeded bit flips of a small shard through verify, the tuner, --resume and merge (issue 10):
# never a signal, every damaged file refused by name. 300 flips by default, 3000 as `slow`.
if(TARGET hansu-selfplay AND TARGET hansu-tune)
  hansu_add_test(test_shard_flips SOURCES test_shard_flips.c LIBS hansu_selfplay_testutil
                 TIMEOUT 300)
  add_dependencies(test_shard_flips hansu-selfplay hansu-tune)
  add_test(NAME test_shard_flips_many COMMAND test_shard_flips 3000)
  set_tests_properties(test_shard_flips_many PROPERTIES LABELS slow TIMEOUT 1800)
  set_tests_properties(test_shard_flips test_shard_flips_many PROPERTIES ENVIRONMENT
    "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/lsan-hdf5.supp")
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
    # hansu-selfplay export: tags, moves and scores as stored; --games; refused selections.
    add_test(NAME test_export_py
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_export.py
                     $<TARGET_FILE:hansu-selfplay> ${CMAKE_CURRENT_BINARY_DIR}/test_export.d)
    set_tests_properties(test_export_py PROPERTIES TIMEOUT 120)
    # The Python helpers on damaged and foreign input: one-line errors, never a traceback.
    add_test(NAME test_script_errors_py
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_script_errors.py
                     $<TARGET_FILE:hansu-selfplay> ${CMAKE_CURRENT_BINARY_DIR}/test_script_errors.d)
    set_tests_properties(test_script_errors_py PROPERTIES TIMEOUT 120)
    # scripts/selfplay_stats.py on xiangqi: Red/Black, draws counted as draws (issue 23).
    add_test(NAME test_selfplay_stats_py
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_selfplay_stats.py
                     $<TARGET_FILE:hansu-selfplay> ${CMAKE_CURRENT_BINARY_DIR}/test_selfplay_stats.d)
    set_tests_properties(test_selfplay_stats_py PROPERTIES TIMEOUT 120)
    # scripts/selfplay_stats.py: decided scores (stored as ends in n plies) kept out of
    # the centipawn statistics; a shard copied within the folder is a failing WARNING.
    set(hansu_stats_dir ${CMAKE_CURRENT_BINARY_DIR}/runner_stats_py.d)
    set(hansu_stats_py /usr/bin/python3 ${PROJECT_SOURCE_DIR}/scripts/selfplay_stats.py)
    add_test(NAME runner_stats_py COMMAND sh -c
      "rm -rf '${hansu_stats_dir}' && '$<TARGET_FILE:hansu-selfplay>' --games 16 --nodes 50 \
--threads 2 --hash 1 --no-bench --progress 1000 --out '${hansu_stats_dir}' >/dev/null \
&& ${hansu_stats_py} '${hansu_stats_dir}' >'${hansu_stats_dir}.out' 2>&1; echo rc=$?; \
tail -2 '${hansu_stats_dir}.out'; \
cp '${hansu_stats_dir}/shard-000000.h5' '${hansu_stats_dir}/shard-000001.h5' \
&& ${hansu_stats_py} '${hansu_stats_dir}' >/dev/null; echo rc=$?")
    set_tests_properties(runner_stats_py PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION
      "rc=0\n.*of them stored as an end in n plies [0-9]+\nscore \\(cp, decided excluded\\): mean -?[0-9.]+, sd [0-9]+\\.[0-9].*WARNING: 16 games share their id.*rc=1")
  endif()
endif()

# The front end's checks, told before any slow work (the bench) and without a report of zeros.
if(TARGET hansu-selfplay)
  set(hansu_sp_dir ${CMAKE_CURRENT_BINARY_DIR}/runner_cli.d)
  foreach(case
      "depth_zero|--depth;0|--depth must be at least 1"
      "movetime_zero|--movetime;0|--movetime must be at least 1"
      "two_limits|--nodes;100;--depth;3|give only one of --nodes, --depth and --movetime"
      "resume_missing|--resume;--out;${hansu_sp_dir}/missing|nothing to resume in"
      "bad_out|--out;/proc/hansu-x|/proc/hansu-x: cannot create the folder"
      "json_unwritable|--games;1;--nodes;10;--no-bench;--json;${hansu_sp_dir}/no-such-folder/r.json|--json .*/no-such-folder/r.json: cannot write into its folder"
      "threads_many|--threads;5000|--threads 5000: must be in 0\\.\\.[0-9]+ \\(at most 4 per CPU")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts -1 want)
    list(LENGTH parts len)
    math(EXPR nargs "${len} - 2")
    list(SUBLIST parts 1 ${nargs} args)
    add_test(NAME runner_cli_${name} COMMAND hansu-selfplay ${args})
    set_tests_properties(runner_cli_${name} PROPERTIES TIMEOUT 20
      PASS_REGULAR_EXPRESSION "${want}" FAIL_REGULAR_EXPRESSION "measuring|games played")
  endforeach()
  # merge refuses to write into the folder it reads (every game would be stored twice).
  add_test(NAME runner_cli_merge_into_input COMMAND sh -c
    "rm -rf '${hansu_sp_dir}/run' && mkdir -p '${hansu_sp_dir}' && '$<TARGET_FILE:hansu-selfplay>' --games 4 --nodes 20 \
--threads 1 --hash 1 --no-bench --progress 1000 --out '${hansu_sp_dir}/run' >/dev/null \
&& '$<TARGET_FILE:hansu-selfplay>' merge -o '${hansu_sp_dir}/run/shard-000000.h5' '${hansu_sp_dir}/run'; \
echo rc=$?; '$<TARGET_FILE:hansu-selfplay>' verify '${hansu_sp_dir}/run'")
  set_tests_properties(runner_cli_merge_into_input PROPERTIES TIMEOUT 60
    PASS_REGULAR_EXPRESSION "lies inside the input folder.*rc=1.*verified 1 files: 4 games")
  # scripts/train_report.py on docs/train-example (no self-play files kept) and corrupt inputs.
  if(EXISTS /usr/bin/python3)
    execute_process(COMMAND /usr/bin/python3 -c "import h5py, numpy, pandas, matplotlib"
                    RESULT_VARIABLE hansu_no_report_py OUTPUT_QUIET ERROR_QUIET)
    if(hansu_no_report_py EQUAL 0)
      add_test(NAME train_report_py COMMAND /usr/bin/python3
               ${CMAKE_CURRENT_SOURCE_DIR}/test_train_report.py
               ${CMAKE_CURRENT_BINARY_DIR}/train_report.d ${PROJECT_BINARY_DIR})
      set_tests_properties(train_report_py PROPERTIES TIMEOUT 420)
    endif()
  endif()
  # A SIGKILL of scripts/train leaves no child: the self-play child it runs ends with it.
  if(EXISTS /usr/bin/python3)
    add_test(NAME train_children_py COMMAND /usr/bin/python3
             ${CMAKE_CURRENT_SOURCE_DIR}/test_train_children.py $<TARGET_FILE:hansu-selfplay>
             ${CMAKE_CURRENT_BINARY_DIR}/train_children.d)
    set_tests_properties(train_children_py PROPERTIES TIMEOUT 180)
  endif()
  # "cores busy" covers the span of the games only: the bench's CPU time before them is not
  # counted (a 1-thread run once showed 3.43 cores busy).
  add_test(NAME runner_cli_cores_busy COMMAND sh -c
    "rm -rf '${hansu_sp_dir}/busy' && mkdir -p '${hansu_sp_dir}' && '$<TARGET_FILE:hansu-selfplay>' --games 8 --nodes 50 \
--threads 1 --hash 1 --progress 1000 --out '${hansu_sp_dir}/busy' 2>&1")
  set_tests_properties(runner_cli_cores_busy PROPERTIES TIMEOUT 120
    PASS_REGULAR_EXPRESSION "cpu +[0-9.]+ s, (0\\.[0-9]+|1\\.[0-2][0-9]) cores busy")
endif()
