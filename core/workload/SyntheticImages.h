#pragma once
// Synthetic images for multimodal requests (`workload.images`): seeded pixels (colour blocks
// over a gradient, with noise so that no two images compress alike) encoded as PNG or baseline
// JPEG here, with zlib and no image library (core links no Qt Gui: the headless CLI runs where
// there is no display stack). A phase holds a pool of encoded images, built once; each request
// picks its images from the pool by a pure function of (seed, ticket), so every cell and every
// server sends the same images in the same order for a seed, and per request the cost is a few
// appends.
//
// The pool is finite: a server that caches image encodings (vLLM's multimodal cache does) sees
// an image again once the pool has gone round; pool size is in ImagePool::size().
#include "spec/WorkloadShapes.h"
#include <QByteArray>
#include <cstdint>
#include <memory>
#include <vector>

namespace sb {

// RGB pixels, 3 bytes each, row by row: a pure function of (seed, index, width, height).
std::vector<std::uint8_t> syntheticPixels(std::uint64_t seed, int index, int width, int height);
QByteArray encodePng(const std::vector<std::uint8_t> &rgb, int width, int height);
// Baseline JPEG, 4:4:4 YCbCr, one flat quantization table and Huffman tables in which every
// symbol has the same code length (valid, simple, and no tables to copy from anywhere).
QByteArray encodeJpeg(const std::vector<std::uint8_t> &rgb, int width, int height);

class ImagePool
{
public:
    ImagePool(const ImageSpec &spec, std::uint64_t seed);
    // A pool shared by every phase with the same images and seed (built once per sweep, not per cell).
    static std::shared_ptr<const ImagePool> shared(const ImageSpec &spec, std::uint64_t seed);

    const ImageSpec &spec() const { return m_spec; }
    int size() const { return int(m_images.size()); }
    // Which pool image is image `k` of request `ticket` (warmup requests draw their own).
    int pick(std::int64_t ticket, bool warmup, int k) const;
    // The encoded file (PNG or JPEG bytes) and its content part, ready to append:
    // {"type":"image_url","image_url":{"url":"data:image/png;base64,..."}}
    const QByteArray &file(int i) const { return m_images[std::size_t(i)].file; }
    const QByteArray &part(int i) const { return m_images[std::size_t(i)].part; }
    // The bytes of the image files request `ticket` carries (records.jsonl image_bytes).
    std::int64_t requestBytes(std::int64_t ticket, bool warmup) const;
    // The user message's content with images: [{"type":"text","text":TEXT}, parts...], where
    // `textJson` is the text as a JSON string literal.
    QByteArray content(const QByteArray &textJson, std::int64_t ticket, bool warmup) const;

private:
    struct Image {
        QByteArray file;
        QByteArray part;
    };
    ImageSpec m_spec;
    std::uint64_t m_seed = 0;
    std::vector<Image> m_images;
};

} // namespace sb
