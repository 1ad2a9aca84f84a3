# dm_add_cmocka_test(NAME SOURCE): a cmocka test executable and its ctest entry.
# With DMBENCH_PORTABLE, libcmocka.so.0 is copied next to the tests and found through an
# $ORIGIN rpath, so the test directory can be carried to a machine without cmocka.
if(DMBENCH_PORTABLE)
  find_library(DM_CMOCKA_SO NAMES libcmocka.so.0 cmocka REQUIRED)
  get_filename_component(DM_CMOCKA_REAL ${DM_CMOCKA_SO} REALPATH)
  file(COPY_FILE ${DM_CMOCKA_REAL} ${CMAKE_CURRENT_BINARY_DIR}/libcmocka.so.0 ONLY_IF_DIFFERENT)
endif()

function(dm_add_cmocka_test name source)
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE dmcore PkgConfig::CMOCKA)
  target_compile_definitions(${name} PRIVATE
    DM_SOURCE_DIR="${CMAKE_SOURCE_DIR}" DM_BINARY_DIR="${CMAKE_BINARY_DIR}")
  if(DMBENCH_PORTABLE)
    set_target_properties(${name} PROPERTIES BUILD_RPATH "$ORIGIN")
  endif()
  add_test(NAME ${name} COMMAND ${name})
  if(name MATCHES "^test_gpu_")
    set_tests_properties(${name} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
  else()
    set_tests_properties(${name} PROPERTIES LABELS cpu)
  endif()
endfunction()
