// Compiled once so that every widget test can reuse this target's precompiled headers
// (tests/CMakeLists.txt); it holds no code of its own.
