#include "spec/YamlBounds.h"
#include <sstream>
#include <unordered_map>
#include <vector>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

namespace sb::yaml {

namespace {
struct Exceeded {
    BoundsError error;
};

class Counter : public YAML::EventHandler
{
public:
    void OnDocumentStart(const YAML::Mark &) override {}
    void OnDocumentEnd() override
    {
        m_anchors.clear(); // anchors are per document; counts carry on (LoadAll reads them all)
    }
    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override { leaf(mark, anchor); }
    void OnScalar(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, const std::string &) override
    {
        leaf(mark, anchor);
    }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        if (++m_aliases > kMaxAliases)
            fail(mark, QStringLiteral("more than %1 aliases (*name); the spec is refused").arg(kMaxAliases));
        const auto it = m_anchors.find(anchor);
        add(mark, it == m_anchors.end() ? 1 : it->second);
    }
    void OnSequenceStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(mark, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(mark, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    struct Frame {
        YAML::anchor_t anchor;
        qint64 totalAtStart;
    };

    [[noreturn]] static void fail(const YAML::Mark &mark, const QString &message) { throw Exceeded{{toPos(mark), message}}; }

    void add(const YAML::Mark &mark, qint64 n)
    {
        m_total += n;
        if (m_total > kMaxNodes)
            fail(mark, QStringLiteral("the document expands to more than %1 nodes (through aliases: %2 so far); the spec is refused")
                           .arg(kMaxNodes).arg(m_aliases));
    }
    void leaf(const YAML::Mark &mark, YAML::anchor_t anchor)
    {
        add(mark, 1);
        if (anchor != YAML::NullAnchor)
            m_anchors[anchor] = 1;
    }
    void open(const YAML::Mark &mark, YAML::anchor_t anchor)
    {
        if (int(m_stack.size()) >= kMaxDepth)
            fail(mark, QStringLiteral("nesting deeper than %1 levels; the spec is refused").arg(kMaxDepth));
        add(mark, 1);
        m_stack.push_back({anchor, m_total - 1});
    }
    void close()
    {
        const Frame f = m_stack.back();
        m_stack.pop_back();
        if (f.anchor != YAML::NullAnchor)
            m_anchors[f.anchor] = m_total - f.totalAtStart; // the node and all it expands to
    }

    std::unordered_map<YAML::anchor_t, qint64> m_anchors;
    std::vector<Frame> m_stack;
    qint64 m_total = 0;
    int m_aliases = 0;
};
} // namespace

std::optional<BoundsError> checkYamlBounds(const QByteArray &text)
{
    std::istringstream in(text.toStdString());
    Counter counter;
    try {
        YAML::Parser parser(in);
        // At most three documents: on a stray ',' yaml-cpp 0.7 reports an empty document without
        // consuming the token, so "until there are no more" never ends. A spec is one document;
        // the loader reports more than one.
        for (int documents = 0; documents < 3 && parser.HandleNextDocument(counter); ++documents) {
        }
    } catch (const Exceeded &e) {
        return e.error;
    } catch (const YAML::Exception &) {
        // Syntax errors: the loader reports them with its own wording.
    }
    return std::nullopt;
}

} // namespace sb::yaml
