#include "mock/MockPrefixCache.h"

namespace sb {

namespace {
// splitmix64 finaliser: cheap, well mixed, deterministic across runs and platforms.
quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
} // namespace

std::vector<quint64> MockPrefixCache::chainHashes(const std::vector<quint32> &tokens, int blockTokens)
{
    std::vector<quint64> out;
    if (blockTokens <= 0)
        return out;
    const size_t blocks = tokens.size() / size_t(blockTokens);
    out.reserve(blocks);
    quint64 parent = 0x5eed;
    for (size_t b = 0; b < blocks; ++b) {
        quint64 h = mix(parent);
        for (size_t i = 0; i < size_t(blockTokens); ++i)
            h = mix(h ^ tokens[b * size_t(blockTokens) + i]);
        out.push_back(h);
        parent = h;
    }
    return out;
}

void MockPrefixCache::touch(std::unordered_map<quint64, std::list<quint64>::iterator>::iterator it)
{
    m_lru.splice(m_lru.begin(), m_lru, it->second);
}

int MockPrefixCache::lookup(const std::vector<quint64> &chain)
{
    int hits = 0;
    for (quint64 h : chain) {
        auto it = m_index.find(h);
        if (it == m_index.end())
            break; // a chain hash covers its whole prefix: the first miss ends the match
        touch(it);
        ++hits;
    }
    return hits;
}

void MockPrefixCache::insert(const std::vector<quint64> &chain)
{
    if (m_capacity == 0)
        return;
    for (quint64 h : chain) {
        auto it = m_index.find(h);
        if (it != m_index.end()) {
            touch(it);
            continue;
        }
        m_lru.push_front(h);
        m_index.emplace(h, m_lru.begin());
        if (int(m_index.size()) > m_capacity) {
            m_index.erase(m_lru.back());
            m_lru.pop_back();
        }
    }
}

void MockPrefixCache::clear()
{
    m_lru.clear();
    m_index.clear();
}

} // namespace sb
