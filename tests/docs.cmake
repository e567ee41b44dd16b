# SPDX-License-Identifier: MIT
# Hansu stands on its own: the README's and docs' links and paths resolve inside the repository,
# and nothing but the oracle sync check refers to the workplace folder beside the checkout.
if(EXISTS /usr/bin/python3)
  add_test(NAME docs_self_contained
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/docs_self_contained.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(docs_self_contained PROPERTIES TIMEOUT 60)
endif()

# The kept weights headers (data/weights/) all build the evaluation of today's term list.
add_test(NAME weights_headers_build
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/weights_headers.sh ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER})
set_tests_properties(weights_headers_build PROPERTIES TIMEOUT 120)
