# SQLite 3, GSL, libfyaml and zlib, as one interface target `dm_deps`. With
# DMBENCH_PORTABLE the static archives are linked, so the binaries need none of them at
# run time (the GPU machine has only libsqlite3.so.0 and libz.so.1, and no headers);
# cmocka is found in tests/CMakeLists.txt.
add_library(dm_deps INTERFACE)
pkg_check_modules(FYAML REQUIRED IMPORTED_TARGET libfyaml)
find_package(SQLite3 REQUIRED)
find_package(GSL REQUIRED)
find_package(ZLIB REQUIRED)
if(DMBENCH_PORTABLE)
  foreach(lib fyaml sqlite3 gsl gslcblas z)
    find_library(DM_STATIC_${lib} NAMES lib${lib}.a REQUIRED)
  endforeach()
  target_include_directories(dm_deps INTERFACE ${FYAML_INCLUDE_DIRS} ${SQLite3_INCLUDE_DIRS}
    ${GSL_INCLUDE_DIRS} ${ZLIB_INCLUDE_DIRS})
  target_link_libraries(dm_deps INTERFACE ${DM_STATIC_fyaml} ${DM_STATIC_sqlite3}
    ${DM_STATIC_gsl} ${DM_STATIC_gslcblas} ${DM_STATIC_z})
else()
  target_link_libraries(dm_deps INTERFACE PkgConfig::FYAML SQLite::SQLite3 GSL::gsl ZLIB::ZLIB)
endif()

# CUPTI (hardware metrics, kernel launches, stream timelines). libcupti loads
# libnvperf_host.so by name at run time, so the binaries carry a DT_NEEDED on it
# (--no-as-needed around it alone); CMake 3.25 has CUDA::cupti but no CUDA::nvperf_host.
# Nothing links libcuda: CUPTI opens the driver itself, and the binaries still start where
# there is none.
find_library(DM_NVPERF_HOST NAMES nvperf_host HINTS ${CUDAToolkit_LIBRARY_DIR}
  PATHS ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64 REQUIRED)
set(CMAKE_LINK_LIBRARY_USING_DM_NEEDED
  "LINKER:--push-state,--no-as-needed" "<LINK_ITEM>" "LINKER:--pop-state")
set(CMAKE_LINK_LIBRARY_USING_DM_NEEDED_SUPPORTED TRUE)
add_library(dm_cupti INTERFACE)
target_link_libraries(dm_cupti INTERFACE CUDA::cupti
  "$<LINK_LIBRARY:DM_NEEDED,${DM_NVPERF_HOST}>")
