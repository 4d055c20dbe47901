#pragma once
// Starts the in-process mock servers for spec entries with `mock:` and maps every server to the
// base URL its traffic goes to. Used by the engine and by the hook preflight.
#include "mock/MockServer.h"
#include "spec/SweepSpec.h"
#include <functional>
#include <map>
#include <memory>

namespace sb {

class EmbeddedMocks
{
public:
    // `traceDirFor(serverIndex)` gives the resolved trace folder a mock should write into.
    bool start(const SweepSpec &spec, const std::function<QString(int)> &traceDirFor, QString *error);
    QStringList baseUrls(int serverIndex) const; // the server's URLs, or its mock's URL
    MockServer *mock(int serverIndex) const;
    // A launched server's URLs, known once its port is (launch/LaunchedServers).
    void useUrls(int serverIndex, const QStringList &urls) { m_urls[serverIndex] = urls; }
    void stop() { m_mocks.clear(); }

private:
    std::map<int, std::unique_ptr<MockServer>> m_mocks;
    std::map<int, QStringList> m_urls;
};

} // namespace sb
