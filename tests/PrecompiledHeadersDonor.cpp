// The compilation that makes the suites' precompiled headers (tests/CMakeLists.txt); no code of its own.
