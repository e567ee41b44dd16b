# SPDX-License-Identifier: MIT
# The self-play runner: the data library hansu_data (packed board codec, column tables, HDF5
# store with its SHA-256 shard digests; the tuner links it too) and the hansu-selfplay executable.
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(OpenMP REQUIRED COMPONENTS C)

# Hash of the weights header compiled in, recorded in every file. CMake re-runs when it
# changes, so the hash follows the tuner's output.
if(HANSU_EVAL_WEIGHTS)
  get_filename_component(hansu_weights_path "${HANSU_EVAL_WEIGHTS}" ABSOLUTE)
else()
  set(hansu_weights_path "${PROJECT_SOURCE_DIR}/engine/eval_weights.h")
endif()
if(EXISTS "${hansu_weights_path}")
  file(SHA256 "${hansu_weights_path}" HANSU_WEIGHTS_SHA256)
  get_filename_component(HANSU_WEIGHTS_NAME "${hansu_weights_path}" NAME)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${hansu_weights_path}")
else()
  set(HANSU_WEIGHTS_SHA256 "none")
  set(HANSU_WEIGHTS_NAME "none")
endif()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/build_info.h.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/selfplay_build_info.h @ONLY)

add_library(hansu_data STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/game_record.c
  ${CMAKE_CURRENT_SOURCE_DIR}/durable.c
  ${CMAKE_CURRENT_SOURCE_DIR}/h5store.c
  ${CMAKE_CURRENT_SOURCE_DIR}/h5store_run.c
  ${CMAKE_CURRENT_SOURCE_DIR}/h5store_seal.c
  ${CMAKE_CURRENT_SOURCE_DIR}/packed_board.c
  ${CMAKE_CURRENT_SOURCE_DIR}/sha256.c
  ${CMAKE_CURRENT_SOURCE_DIR}/verify.c
)
target_include_directories(hansu_data PUBLIC ${CMAKE_CURRENT_SOURCE_DIR} ${HDF5_INCLUDE_DIRS})
target_compile_definitions(hansu_data PUBLIC ${HDF5_DEFINITIONS})
target_link_libraries(hansu_data PUBLIC hansu_core ${HDF5_C_LIBRARIES})

# The runner needs the search (engine/search.c); until it exists only hansu_data is built.
if(EXISTS ${PROJECT_SOURCE_DIR}/engine/search.c)
  add_library(hansu_runner STATIC ${CMAKE_CURRENT_SOURCE_DIR}/runner.c
              ${CMAKE_CURRENT_SOURCE_DIR}/game_driver.c)
  target_include_directories(hansu_runner PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
                             ${CMAKE_CURRENT_BINARY_DIR}/generated)
  target_link_libraries(hansu_runner PUBLIC hansu_data OpenMP::OpenMP_C Threads::Threads)

  add_executable(hansu-selfplay ${CMAKE_CURRENT_SOURCE_DIR}/selfplay_main.c)
  target_link_libraries(hansu-selfplay PRIVATE hansu_runner)
endif()
