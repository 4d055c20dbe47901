#pragma once
// Reads the single YAML document of a spec without yaml-cpp's LoadAll: on some invalid input
// (a stray ',' where a block node should start) yaml-cpp 0.7's parser reports an empty document
// without consuming the token, and LoadAll asks for the next document forever, allocating a node
// each time — a one-byte spec took 3 GB in 5 s (found by tests/fuzz/fuzz_spec). Documents are
// walked here through the parser's events, at most three, and a document that starts where the
// previous one started is the parser making no progress: a syntax error at that place.
#include <yaml-cpp/yaml.h>
#include <string>

namespace sb::yaml {

struct DocumentRead {
    enum class Outcome { Ok, Empty, Several, Stuck };
    Outcome outcome = Outcome::Empty;
    YAML::Node root;           // the first document (Ok)
    int documents = 0;         // documents seen, at most 3 (Several: "2" or "3 or more")
    YAML::Mark at;             // Several: the second document's root; Stuck: the unreadable token
};

// Throws YAML::Exception on a syntax error, as YAML::Load does.
DocumentRead readSingleDocument(const std::string &text);

} // namespace sb::yaml
