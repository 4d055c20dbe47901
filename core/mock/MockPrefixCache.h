#pragma once
// The mock's prefix cache: chain-hashed token blocks (block i's hash covers blocks 0..i, as in
// vLLM's automatic prefix caching), least-recently-used eviction, bounded in blocks. A prompt
// whose leading blocks are cached skips their prefill, which is what makes a repeated long
// prompt fast and a cache reset visible in TTFT.
#include <QtGlobal>
#include <list>
#include <unordered_map>
#include <vector>

namespace sb {

class MockPrefixCache
{
public:
    explicit MockPrefixCache(int capacityBlocks) : m_capacity(std::max(0, capacityBlocks)) {}

    // Number of leading blocks of `chain` that are cached; touches them (most recently used).
    int lookup(const std::vector<quint64> &chain);
    // Inserts every block of `chain`, evicting the least recently used beyond capacity.
    void insert(const std::vector<quint64> &chain);
    void clear();
    int size() const { return int(m_index.size()); }
    int capacity() const { return m_capacity; }

    // Chain hashes of the full blocks of a token sequence.
    static std::vector<quint64> chainHashes(const std::vector<quint32> &tokens, int blockTokens);

private:
    void touch(std::unordered_map<quint64, std::list<quint64>::iterator>::iterator it);

    int m_capacity;
    std::list<quint64> m_lru; // front = most recently used
    std::unordered_map<quint64, std::list<quint64>::iterator> m_index;
};

} // namespace sb
