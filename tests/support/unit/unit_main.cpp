// main() of an engine suite: the harness runs its registered tests, then the
// process ends without static destructors, as the exportlens executable does
// (app/main.cpp: LibTorch's profiler thread races LibTorch's exit-time
// destructors; suites run compiled models under that profiler).
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "unit.h"

int main(int argc, char** argv) {
  const int code = exportlens::unit::run_suite(argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}
