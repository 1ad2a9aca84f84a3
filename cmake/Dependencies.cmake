# SQLite 3, GSL and libfyaml, as one interface target `dm_deps`. With DMBENCH_PORTABLE
# the static archives are linked, so the binaries need none of them at run time (the GPU
# machine has only libsqlite3.so.0); cmocka is found in tests/CMakeLists.txt.
add_library(dm_deps INTERFACE)
pkg_check_modules(FYAML REQUIRED IMPORTED_TARGET libfyaml)
find_package(SQLite3 REQUIRED)
find_package(GSL REQUIRED)
if(DMBENCH_PORTABLE)
  foreach(lib fyaml sqlite3 gsl gslcblas)
    find_library(DM_STATIC_${lib} NAMES lib${lib}.a REQUIRED)
  endforeach()
  target_include_directories(dm_deps INTERFACE ${FYAML_INCLUDE_DIRS} ${SQLite3_INCLUDE_DIRS}
    ${GSL_INCLUDE_DIRS})
  target_link_libraries(dm_deps INTERFACE ${DM_STATIC_fyaml} ${DM_STATIC_sqlite3}
    ${DM_STATIC_gsl} ${DM_STATIC_gslcblas})
else()
  target_link_libraries(dm_deps INTERFACE PkgConfig::FYAML SQLite::SQLite3 GSL::gsl)
endif()
