# Link with LLVM's lld when the compiler can use it (Debian package lld). Every test executable
# links the static core and ui libraries with their debug info; GNU ld took about 5 s a link and
# lld about 1 s (app/sweepbench: 8.5 s -> 1.9 s), which is minutes of every full build.
# -DSWEEPBENCH_LINKER=default keeps the toolchain's own linker.
set(SWEEPBENCH_LINKER "lld" CACHE STRING "Linker passed to -fuse-ld= when the compiler accepts it, or 'default'")
if(NOT SWEEPBENCH_LINKER STREQUAL "default")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=${SWEEPBENCH_LINKER}" SWEEPBENCH_LINKER_${SWEEPBENCH_LINKER}_WORKS)
  if(${SWEEPBENCH_LINKER_${SWEEPBENCH_LINKER}_WORKS})
    add_link_options("-fuse-ld=${SWEEPBENCH_LINKER}")
  else()
    message(STATUS "-fuse-ld=${SWEEPBENCH_LINKER} does not work here: linking with the default linker")
  endif()
endif()
