# SPDX-License-Identifier: MIT
# The board viewer (issue 16): scripts/view-pgn's page and its errors, and report.html in
# headless Chromium with a xiangqi page and docs/train-example/report.html (label `browser`;
# skipped, exit 77, without chromium or python3-websocket).
if(TARGET hansu AND TARGET hansu-selfplay AND EXISTS /usr/bin/python3)
  execute_process(COMMAND /usr/bin/python3 -c "import h5py, numpy, matplotlib"
                  RESULT_VARIABLE hansu_no_py_libs OUTPUT_QUIET ERROR_QUIET)
  add_test(NAME test_view_pgn_py
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_view_pgn.py
                   ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/test_view_pgn.d)
  set_tests_properties(test_view_pgn_py PROPERTIES TIMEOUT 120)
  if(hansu_no_py_libs EQUAL 0)
    # The screenshots stay in tests/test_viewer_browser.d/viewer*.png of the build folder.
    add_test(NAME test_viewer_browser
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_viewer_browser.py
                     ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/test_viewer_browser.d)
    set_tests_properties(test_viewer_browser PROPERTIES LABELS browser TIMEOUT 240
                         SKIP_RETURN_CODE 77)
  endif()
endif()
# The viewer's script (scripts/viewer/viewer.js, inlined into every page) parses as JavaScript:
# node --check; skipped (exit 77) where node is not installed.
add_test(NAME viewer_js_node_check COMMAND sh -c
  "command -v node >/dev/null || { echo 'skipped: no node'; exit 77; }; \
node --check '${PROJECT_SOURCE_DIR}/scripts/viewer/viewer.js' && echo 'viewer.js: node --check ok'")
set_tests_properties(viewer_js_node_check PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
