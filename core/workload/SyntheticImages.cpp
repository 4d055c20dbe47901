#include "workload/SyntheticImages.h"
#include <QMutex>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>
#include <zlib.h>

namespace sb {

namespace {
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void putU16(QByteArray &o, unsigned v)
{
    o += char((v >> 8) & 0xff);
    o += char(v & 0xff);
}
void putU32(QByteArray &o, std::uint32_t v)
{
    putU16(o, v >> 16);
    putU16(o, v & 0xffff);
}

void pngChunk(QByteArray &o, const char *type, const QByteArray &data)
{
    putU32(o, std::uint32_t(data.size()));
    const QByteArray typed = QByteArray(type, 4) + data;
    o += typed;
    putU32(o, std::uint32_t(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef *>(typed.constData()), uInt(typed.size()))));
}

// Writes entropy-coded bits MSB first, stuffing a zero byte after every 0xFF (JPEG's rule).
class BitWriter
{
public:
    explicit BitWriter(QByteArray &out) : m_out(out) {}
    void put(std::uint32_t bits, int n)
    {
        for (int i = n - 1; i >= 0; --i) {
            m_acc = std::uint8_t((m_acc << 1) | ((bits >> i) & 1u));
            if (++m_n == 8)
                flushByte();
        }
    }
    void finish() // pad the last byte with ones
    {
        while (m_n != 0)
            put(1, 1);
    }

private:
    void flushByte()
    {
        m_out += char(m_acc);
        if (m_acc == 0xff)
            m_out += char(0);
        m_acc = 0;
        m_n = 0;
    }
    QByteArray &m_out;
    std::uint8_t m_acc = 0;
    int m_n = 0;
};

int bitLength(int v)
{
    int n = 0;
    for (v = std::abs(v); v; v >>= 1)
        ++n;
    return n;
}

// The value bits of a coefficient of `size` bits: negative values as their ones' complement.
std::uint32_t valueBits(int v, int size)
{
    return std::uint32_t(v >= 0 ? v : v + (1 << size) - 1);
}

// Zigzag order: position k of the scan is natural index kZigzag[k] (row * 8 + column); the
// diagonals row + column = s alternate direction, the first going right then down-left.
std::array<int, 64> makeZigzag()
{
    std::array<int, 64> z{};
    int k = 0;
    for (int s = 0; s < 15; ++s) {
        const int lo = std::max(0, s - 7), hi = std::min(s, 7);
        for (int i = 0; i <= hi - lo; ++i) {
            const int row = (s % 2) ? lo + i : hi - i;
            z[std::size_t(k++)] = row * 8 + (s - row);
        }
    }
    return z;
}

// The AC symbols in code order: end of block, sixteen zeros, then every (run, size) pair.
std::vector<std::uint8_t> acSymbols()
{
    std::vector<std::uint8_t> s{0x00, 0xf0};
    for (int run = 0; run < 16; ++run)
        for (int size = 1; size <= 10; ++size)
            s.push_back(std::uint8_t((run << 4) | size));
    return s;
}

constexpr int kDcCodeBits = 4; // 12 DC categories, all 4-bit codes
constexpr int kAcCodeBits = 8; // 162 AC symbols, all 8-bit codes
// One flat quantization step for every coefficient: with the light noise, about 2-3 bits a pixel
// (a photo's JPEG at quality ~75), so requests carry bytes like real images do.
constexpr int kQuant = 16;
constexpr std::int64_t kPoolPixels = 16LL * 1024 * 1024; // pixels a pool holds, unless one request needs more
constexpr int kMaxPool = 32;
} // namespace

std::vector<std::uint8_t> syntheticPixels(std::uint64_t seed, int index, int width, int height)
{
    // Coloured 32-pixel blocks over a diagonal gradient, plus light per-pixel noise: the image
    // looks like something (a vision encoder sees structure), no two images encode alike, and
    // neither format compresses it to nothing.
    const std::uint64_t base = mix(seed ^ mix(std::uint64_t(index) + 0x5bd1e995u));
    std::vector<std::uint8_t> px(std::size_t(width) * std::size_t(height) * 3);
    const int blocksX = (width + 31) / 32;
    std::uint64_t noise = base;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const std::uint64_t block = mix(base + std::uint64_t((y / 32) * blocksX + x / 32));
            for (int c = 0; c < 3; ++c) {
                noise = noise * 6364136223846793005ULL + 1442695040888963407ULL;
                const int gradient = (x * 255 / std::max(1, width - 1) * (c + 1) + y * 255 / std::max(1, height - 1) * (3 - c)) / 4;
                const int v = (gradient + int((block >> (8 * c)) & 0xff)) / 2 + int((noise >> 61) & 0x7) - 4;
                px[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3 + std::size_t(c)] = std::uint8_t(std::clamp(v, 0, 255));
            }
        }
    }
    return px;
}

QByteArray encodePng(const std::vector<std::uint8_t> &rgb, int width, int height)
{
    QByteArray raw;
    raw.reserve(qsizetype(height) * (qsizetype(width) * 3 + 1));
    for (int y = 0; y < height; ++y) {
        raw += char(0); // filter: none
        raw.append(reinterpret_cast<const char *>(rgb.data()) + qsizetype(y) * width * 3, qsizetype(width) * 3);
    }
    uLongf packedSize = compressBound(uLong(raw.size()));
    QByteArray packed(qsizetype(packedSize), Qt::Uninitialized);
    compress2(reinterpret_cast<Bytef *>(packed.data()), &packedSize, reinterpret_cast<const Bytef *>(raw.constData()), uLong(raw.size()), 1);
    packed.resize(qsizetype(packedSize));

    QByteArray out("\x89PNG\r\n\x1a\n", 8);
    QByteArray ihdr;
    putU32(ihdr, std::uint32_t(width));
    putU32(ihdr, std::uint32_t(height));
    ihdr += char(8); // bit depth
    ihdr += char(2); // truecolour RGB
    ihdr += QByteArray(3, '\0'); // deflate, adaptive filtering, no interlace
    pngChunk(out, "IHDR", ihdr);
    pngChunk(out, "IDAT", packed);
    pngChunk(out, "IEND", QByteArray());
    return out;
}

QByteArray encodeJpeg(const std::vector<std::uint8_t> &rgb, int width, int height)
{
    static const std::array<int, 64> zigzag = makeZigzag();
    static const std::vector<std::uint8_t> ac = acSymbols();
    std::array<int, 256> acCode{};
    for (std::size_t i = 0; i < ac.size(); ++i)
        acCode[ac[i]] = int(i); // canonical codes of one length: a symbol's code is its position
    std::array<std::array<double, 8>, 8> cosine{};
    for (int x = 0; x < 8; ++x)
        for (int u = 0; u < 8; ++u)
            cosine[std::size_t(x)][std::size_t(u)] = std::cos((2 * x + 1) * u * std::numbers::pi / 16) * (u == 0 ? std::sqrt(0.5) : 1.0) / 2;

    QByteArray out("\xff\xd8", 2); // SOI
    out += QByteArray("\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00", 18);
    out += QByteArray("\xff\xdb\x00\x43\x00", 5); // DQT: table 0, 8-bit
    out += QByteArray(64, char(kQuant));
    out += QByteArray("\xff\xc0\x00\x11\x08", 5); // SOF0, 8-bit samples
    putU16(out, unsigned(height));
    putU16(out, unsigned(width));
    out += QByteArray("\x03\x01\x11\x00\x02\x11\x00\x03\x11\x00", 10); // Y Cb Cr, 1x1 each, table 0
    out += QByteArray("\xff\xc4", 2); // DHT: DC table 0 and AC table 0
    putU16(out, unsigned(2 + 17 + 12 + 17 + ac.size()));
    out += char(0x00);
    for (int len = 1; len <= 16; ++len)
        out += char(len == kDcCodeBits ? 12 : 0);
    for (int cat = 0; cat < 12; ++cat)
        out += char(cat);
    out += char(0x10);
    for (int len = 1; len <= 16; ++len)
        out += char(len == kAcCodeBits ? int(ac.size()) : 0);
    out.append(reinterpret_cast<const char *>(ac.data()), qsizetype(ac.size()));
    out += QByteArray("\xff\xda\x00\x0c\x03\x01\x00\x02\x00\x03\x00\x00\x3f\x00", 14); // SOS

    BitWriter bits(out);
    std::array<int, 3> lastDc{};
    std::array<double, 64> block{};
    std::array<double, 64> rows{};
    for (int by = 0; by < height; by += 8) {
        for (int bx = 0; bx < width; bx += 8) {
            for (int comp = 0; comp < 3; ++comp) {
                for (int y = 0; y < 8; ++y) {
                    for (int x = 0; x < 8; ++x) { // edge pixels repeat past the border
                        const std::size_t at = (std::size_t(std::min(by + y, height - 1)) * std::size_t(width) + std::size_t(std::min(bx + x, width - 1))) * 3;
                        const double r = rgb[at], g = rgb[at + 1], b = rgb[at + 2];
                        const double v = comp == 0 ? 0.299 * r + 0.587 * g + 0.114 * b
                                         : comp == 1 ? -0.168736 * r - 0.331264 * g + 0.5 * b + 128
                                                     : 0.5 * r - 0.418688 * g - 0.081312 * b + 128;
                        block[std::size_t(y * 8 + x)] = v - 128;
                    }
                }
                for (int y = 0; y < 8; ++y) // separable DCT: rows, then columns
                    for (int u = 0; u < 8; ++u) {
                        double s = 0;
                        for (int x = 0; x < 8; ++x)
                            s += block[std::size_t(y * 8 + x)] * cosine[std::size_t(x)][std::size_t(u)];
                        rows[std::size_t(y * 8 + u)] = s;
                    }
                std::array<int, 64> q{};
                for (int v = 0; v < 8; ++v)
                    for (int u = 0; u < 8; ++u) {
                        double s = 0;
                        for (int y = 0; y < 8; ++y)
                            s += rows[std::size_t(y * 8 + u)] * cosine[std::size_t(y)][std::size_t(v)];
                        q[std::size_t(v * 8 + u)] = int(std::lround(s / kQuant));
                    }
                const int dc = q[0];
                const int diff = dc - lastDc[std::size_t(comp)];
                lastDc[std::size_t(comp)] = dc;
                const int cat = bitLength(diff);
                bits.put(std::uint32_t(cat), kDcCodeBits);
                if (cat)
                    bits.put(valueBits(diff, cat), cat);
                int run = 0;
                for (int k = 1; k < 64; ++k) {
                    const int v = q[std::size_t(zigzag[std::size_t(k)])];
                    if (v == 0) {
                        ++run;
                        continue;
                    }
                    for (; run > 15; run -= 16)
                        bits.put(std::uint32_t(acCode[0xf0]), kAcCodeBits);
                    const int size = std::min(bitLength(v), 10); // |v| < 128 with this quantization
                    bits.put(std::uint32_t(acCode[std::size_t((run << 4) | size)]), kAcCodeBits);
                    bits.put(valueBits(v, size), size);
                    run = 0;
                }
                if (run > 0)
                    bits.put(std::uint32_t(acCode[0x00]), kAcCodeBits);
            }
        }
    }
    bits.finish();
    out += QByteArray("\xff\xd9", 2); // EOI
    return out;
}

ImagePool::ImagePool(const ImageSpec &spec, std::uint64_t seed) : m_spec(spec), m_seed(seed)
{
    const std::int64_t pixels = std::max<std::int64_t>(1, std::int64_t(spec.width) * spec.height);
    const int n = int(std::clamp<std::int64_t>(kPoolPixels / pixels, std::max(1, spec.count), std::max(kMaxPool, spec.count)));
    const bool png = spec.format == ImageFormat::Png;
    const QByteArray prefix = png ? QByteArrayLiteral(R"({"type":"image_url","image_url":{"url":"data:image/png;base64,)")
                                  : QByteArrayLiteral(R"({"type":"image_url","image_url":{"url":"data:image/jpeg;base64,)");
    m_images.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i) {
        const std::vector<std::uint8_t> px = syntheticPixels(seed, i, spec.width, spec.height);
        Image im;
        im.file = png ? encodePng(px, spec.width, spec.height) : encodeJpeg(px, spec.width, spec.height);
        im.part = prefix + im.file.toBase64() + "\"}}";
        m_images.push_back(std::move(im));
    }
}

std::shared_ptr<const ImagePool> ImagePool::shared(const ImageSpec &spec, std::uint64_t seed)
{
    // One pool alive per (images, seed): the phases of a sweep share it; it goes with the last user.
    static QMutex mutex;
    static std::map<std::tuple<int, int, int, int, std::uint64_t>, std::weak_ptr<const ImagePool>> pools;
    const auto key = std::make_tuple(spec.count, spec.width, spec.height, int(spec.format), seed);
    QMutexLocker lock(&mutex);
    if (auto p = pools[key].lock())
        return p;
    auto p = std::make_shared<const ImagePool>(spec, seed);
    pools[key] = p;
    return p;
}

int ImagePool::pick(std::int64_t ticket, bool warmup, int k) const
{
    const std::uint64_t h = mix(mix(m_seed ^ (warmup ? 0x77a3c1ULL : 0x1d2f5bULL)) + mix(std::uint64_t(ticket)) * 31 + std::uint64_t(k));
    return int(h % std::uint64_t(m_images.size()));
}

std::int64_t ImagePool::requestBytes(std::int64_t ticket, bool warmup) const
{
    std::int64_t bytes = 0;
    for (int k = 0; k < m_spec.count; ++k)
        bytes += file(pick(ticket, warmup, k)).size();
    return bytes;
}

QByteArray ImagePool::content(const QByteArray &textJson, std::int64_t ticket, bool warmup) const
{
    qsizetype size = textJson.size() + 32;
    for (int k = 0; k < m_spec.count; ++k)
        size += part(pick(ticket, warmup, k)).size() + 1;
    QByteArray out;
    out.reserve(size);
    out += R"([{"type":"text","text":)";
    out += textJson;
    out += '}';
    for (int k = 0; k < m_spec.count; ++k) {
        out += ',';
        out += part(pick(ticket, warmup, k));
    }
    out += ']';
    return out;
}

} // namespace sb
