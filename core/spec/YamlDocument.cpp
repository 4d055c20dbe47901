#include "spec/YamlDocument.h"
#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>
#include <sstream>
#include <vector>

namespace sb::yaml {

namespace {
// Where each document starts and where its root node is; builds nothing, so aliases cost nothing.
class DocumentMarks : public YAML::EventHandler
{
public:
    struct Doc {
        YAML::Mark start;
        YAML::Mark root;
        bool hasRoot = false;
    };
    std::vector<Doc> docs;

    void OnDocumentStart(const YAML::Mark &mark) override { docs.push_back({mark, mark, false}); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark &mark, YAML::anchor_t) override { node(mark); }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override { node(mark); }
    void OnScalar(const YAML::Mark &mark, const std::string &, YAML::anchor_t, const std::string &) override { node(mark); }
    void OnSequenceStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t, YAML::EmitterStyle::value) override { node(mark); }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t, YAML::EmitterStyle::value) override { node(mark); }
    void OnMapEnd() override {}

private:
    void node(const YAML::Mark &mark)
    {
        if (!docs.empty() && !docs.back().hasRoot) {
            docs.back().root = mark;
            docs.back().hasRoot = true;
        }
    }
};
} // namespace

DocumentRead readSingleDocument(const std::string &text)
{
    DocumentRead out;
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentMarks marks;
    while (marks.docs.size() < 3 && parser.HandleNextDocument(marks)) {
        const auto n = marks.docs.size();
        if (n >= 2 && marks.docs[n - 1].start.pos == marks.docs[n - 2].start.pos) {
            out.outcome = DocumentRead::Outcome::Stuck;
            out.at = marks.docs[n - 1].start;
            out.documents = int(n - 1);
            return out;
        }
    }
    out.documents = int(marks.docs.size());
    if (out.documents > 1) {
        out.outcome = DocumentRead::Outcome::Several;
        out.at = marks.docs[1].root;
        return out;
    }
    if (out.documents == 0)
        return out; // Empty
    out.root = YAML::Load(text); // one document: LoadAll's loop is what never ends, not Load
    out.outcome = DocumentRead::Outcome::Ok;
    return out;
}

} // namespace sb::yaml
