#include "parquet/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <string>

namespace shoal::parquet {
namespace {

Status SizeMismatch(const char* codec, size_t got, size_t want) {
  return Status::Corruption(std::string(codec) + " page decompressed to " + std::to_string(got) +
                            " bytes, header says " + std::to_string(want));
}

Status GzipDecompress(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size) {
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return Status::Internal("zlib inflateInit2 failed");
  zs.next_in = const_cast<Bytef*>(in);
  zs.avail_in = static_cast<uInt>(in_size);
  zs.next_out = out;
  zs.avail_out = static_cast<uInt>(out_size);
  Status st;
  while (true) {
    int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members: continue with the next one when input remains.
      if (zs.avail_in > 0 && zs.next_in[0] == 0x1f) {
        if (inflateReset(&zs) != Z_OK) {
          st = Status::Corruption("GZIP page: cannot reset stream");
          break;
        }
        continue;
      }
      break;
    }
    if (rc == Z_OK) {
      if (zs.avail_out == 0) {
        // Output full but stream not finished: is there more data than the header says?
        uint8_t extra;
        zs.next_out = &extra;
        zs.avail_out = 1;
        int rc2 = inflate(&zs, Z_NO_FLUSH);
        if (zs.avail_out == 0) {
          st = Status::Corruption("GZIP page decompresses to more than its header's " +
                                  std::to_string(out_size) + " bytes");
          break;
        }
        if (rc2 == Z_STREAM_END) break;
        if (rc2 != Z_OK) {
          st = Status::Corruption("GZIP page: truncated or corrupt stream");
          break;
        }
        continue;
      }
      if (zs.avail_in == 0) {
        st = Status::Corruption("GZIP page: truncated stream");
        break;
      }
      continue;
    }
    st = Status::Corruption(std::string("GZIP page: ") + (zs.msg ? zs.msg : "corrupt stream"));
    break;
  }
  // total_out restarts with every member; count from the output pointer instead.
  size_t produced = zs.next_out >= out && zs.next_out <= out + out_size ? static_cast<size_t>(zs.next_out - out) : out_size;
  inflateEnd(&zs);
  RETURN_NOT_OK(st);
  if (produced != out_size) return SizeMismatch("GZIP", produced, out_size);
  return Status::OK();
}

uint32_t LoadBE32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// Hadoop's framing: ([BE uncompressed size][BE compressed size][LZ4 block])*; false when the
// input does not follow it exactly.
bool TryLz4Hadoop(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size) {
  size_t ip = 0, op = 0;
  while (ip < in_size) {
    if (in_size - ip < 8) return false;
    uint32_t raw = LoadBE32(in + ip), comp = LoadBE32(in + ip + 4);
    ip += 8;
    if (comp > in_size - ip || raw > out_size - op) return false;
    // A frame may hold several LZ4 blocks that together make `raw` bytes.
    size_t frame_end = ip + comp, frame_out_end = op + raw;
    while (ip < frame_end) {
      int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in + ip), reinterpret_cast<char*>(out + op),
                                  static_cast<int>(frame_end - ip), static_cast<int>(frame_out_end - op));
      if (n < 0) return false;
      op += static_cast<size_t>(n);
      ip = frame_end;  // one block per frame (Hadoop's writer); more is not representable
    }
    if (op != frame_out_end) return false;
  }
  return op == out_size;
}

bool TryLz4Frame(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size) {
  if (in_size < 4 || !(in[0] == 0x04 && in[1] == 0x22 && in[2] == 0x4d && in[3] == 0x18)) return false;
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return false;
  size_t ip = 0, op = 0;
  bool ok = true;
  while (ip < in_size) {
    size_t src = in_size - ip, dst = out_size - op;
    uint8_t extra;
    uint8_t* dptr = dst ? out + op : &extra;
    if (!dst) dst = 1;
    size_t rc = LZ4F_decompress(ctx, dptr, &dst, in + ip, &src, nullptr);
    if (LZ4F_isError(rc) || (dptr == &extra && dst > 0)) {
      ok = false;
      break;
    }
    ip += src;
    if (dptr != &extra) op += dst;
    if (rc == 0) break;
    if (src == 0 && dst == 0) {
      ok = false;
      break;
    }
  }
  LZ4F_freeDecompressionContext(ctx);
  return ok && op == out_size;
}

}  // namespace

Status Decompress(CompressionCodec codec, const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size) {
  if (out_size > static_cast<size_t>(kMaxPageBytes)) {
    return Status::Corruption("page size " + std::to_string(out_size) + " exceeds the 1 GiB limit");
  }
  switch (codec) {
    case CompressionCodec::kUncompressed:
      if (in_size != out_size) return SizeMismatch("UNCOMPRESSED", in_size, out_size);
      if (in_size) std::memcpy(out, in, in_size);
      return Status::OK();
    case CompressionCodec::kSnappy: {
      size_t n = 0;
      if (snappy_uncompressed_length(reinterpret_cast<const char*>(in), in_size, &n) != SNAPPY_OK) {
        return Status::Corruption("SNAPPY page: corrupt length header");
      }
      if (n != out_size) return SizeMismatch("SNAPPY", n, out_size);
      size_t got = out_size;
      if (snappy_uncompress(reinterpret_cast<const char*>(in), in_size, reinterpret_cast<char*>(out), &got) !=
          SNAPPY_OK) {
        return Status::Corruption("SNAPPY page: corrupt data");
      }
      if (got != out_size) return SizeMismatch("SNAPPY", got, out_size);
      return Status::OK();
    }
    case CompressionCodec::kGzip: return GzipDecompress(in, in_size, out, out_size);
    case CompressionCodec::kZstd: {
      // One decompression context per thread, reused: creating one per page costs an
      // allocation of ~100 KiB and its page faults.
      struct DCtx {
        ZSTD_DCtx* ctx = ZSTD_createDCtx();
        ~DCtx() { ZSTD_freeDCtx(ctx); }
      };
      thread_local DCtx dctx;
      size_t n = dctx.ctx ? ZSTD_decompressDCtx(dctx.ctx, out, out_size, in, in_size)
                          : ZSTD_decompress(out, out_size, in, in_size);
      if (ZSTD_isError(n)) return Status::Corruption(std::string("ZSTD page: ") + ZSTD_getErrorName(n));
      if (n != out_size) return SizeMismatch("ZSTD", n, out_size);
      return Status::OK();
    }
    case CompressionCodec::kLz4Raw: {
      if (in_size > INT32_MAX) return Status::Corruption("LZ4_RAW page too large");
      int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out),
                                  static_cast<int>(in_size), static_cast<int>(out_size));
      if (n < 0) return Status::Corruption("LZ4_RAW page: corrupt data");
      if (static_cast<size_t>(n) != out_size) return SizeMismatch("LZ4_RAW", n, out_size);
      return Status::OK();
    }
    case CompressionCodec::kLz4: {
      if (in_size > INT32_MAX) return Status::Corruption("LZ4 page too large");
      if (TryLz4Hadoop(in, in_size, out, out_size)) return Status::OK();
      if (TryLz4Frame(in, in_size, out, out_size)) return Status::OK();
      int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out),
                                  static_cast<int>(in_size), static_cast<int>(out_size));
      if (n < 0) return Status::Corruption("LZ4 page: corrupt data (neither Hadoop framing nor a raw block)");
      if (static_cast<size_t>(n) != out_size) return SizeMismatch("LZ4", n, out_size);
      return Status::OK();
    }
    case CompressionCodec::kBrotli: {
      size_t n = out_size;
      BrotliDecoderResult rc = BrotliDecoderDecompress(in_size, in, &n, out);
      if (rc != BROTLI_DECODER_RESULT_SUCCESS) {
        return Status::Corruption("BROTLI page: corrupt data or larger than its header's " +
                                  std::to_string(out_size) + " bytes");
      }
      if (n != out_size) return SizeMismatch("BROTLI", n, out_size);
      return Status::OK();
    }
    case CompressionCodec::kLzo: return Status::NotSupported("LZO compression is not supported");
  }
  return Status::NotSupported("unknown compression codec " + std::to_string(static_cast<int>(codec)));
}

Status Compress(CompressionCodec codec, std::string_view in, std::string* out, int level) {
  size_t base = out->size();
  switch (codec) {
    case CompressionCodec::kUncompressed: out->append(in); return Status::OK();
    case CompressionCodec::kSnappy: {
      size_t cap = snappy_max_compressed_length(in.size());
      out->resize(base + cap);
      size_t n = cap;
      if (snappy_compress(in.data(), in.size(), out->data() + base, &n) != SNAPPY_OK) {
        out->resize(base);
        return Status::Internal("snappy_compress failed");
      }
      out->resize(base + n);
      return Status::OK();
    }
    case CompressionCodec::kGzip: {
      z_stream zs;
      std::memset(&zs, 0, sizeof(zs));
      if (deflateInit2(&zs, level > 0 ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                       Z_DEFAULT_STRATEGY) != Z_OK) {
        return Status::Internal("deflateInit2 failed");
      }
      size_t cap = deflateBound(&zs, in.size());
      out->resize(base + cap);
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      zs.avail_in = static_cast<uInt>(in.size());
      zs.next_out = reinterpret_cast<Bytef*>(out->data() + base);
      zs.avail_out = static_cast<uInt>(cap);
      int rc = deflate(&zs, Z_FINISH);
      size_t n = zs.total_out;
      deflateEnd(&zs);
      if (rc != Z_STREAM_END) {
        out->resize(base);
        return Status::Internal("deflate failed");
      }
      out->resize(base + n);
      return Status::OK();
    }
    case CompressionCodec::kZstd: {
      size_t cap = ZSTD_compressBound(in.size());
      out->resize(base + cap);
      size_t n = ZSTD_compress(out->data() + base, cap, in.data(), in.size(), level > 0 ? level : 3);
      if (ZSTD_isError(n)) {
        out->resize(base);
        return Status::Internal(std::string("ZSTD_compress: ") + ZSTD_getErrorName(n));
      }
      out->resize(base + n);
      return Status::OK();
    }
    case CompressionCodec::kLz4Raw: {
      if (in.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) return Status::InvalidArgument("page too large for LZ4");
      int cap = LZ4_compressBound(static_cast<int>(in.size()));
      out->resize(base + cap);
      int n = LZ4_compress_default(in.data(), out->data() + base, static_cast<int>(in.size()), cap);
      if (n <= 0 && !in.empty()) {
        out->resize(base);
        return Status::Internal("LZ4_compress_default failed");
      }
      out->resize(base + n);
      return Status::OK();
    }
    case CompressionCodec::kBrotli: {
      size_t cap = BrotliEncoderMaxCompressedSize(in.size());
      if (cap == 0) cap = in.size() + 1024;
      out->resize(base + cap);
      size_t n = cap;
      if (!BrotliEncoderCompress(level > 0 ? level : 5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, in.size(),
                                 reinterpret_cast<const uint8_t*>(in.data()), &n,
                                 reinterpret_cast<uint8_t*>(out->data() + base))) {
        out->resize(base);
        return Status::Internal("BrotliEncoderCompress failed");
      }
      out->resize(base + n);
      return Status::OK();
    }
    case CompressionCodec::kLz4:
    case CompressionCodec::kLzo:
      return Status::NotSupported(std::string("writing ") + CodecName(codec) + " compression is not supported");
  }
  return Status::NotSupported("unknown compression codec");
}

}  // namespace shoal::parquet
