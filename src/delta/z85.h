// Z85 (ZeroMQ RFC 32 base85), the JSON-friendly encoding Delta uses for inline deletion
// vectors and for the UUIDs in relative deletion-vector paths.
//
// Z85 maps each 4 bytes (big-endian) to 5 characters. Like Delta, the encoder pads input to a
// multiple of 4 with zero bytes and the decoder can truncate to a known output length.
// Thread-safety: free functions without shared state.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::delta {

// Encodes `data`, zero-padded to a multiple of 4 bytes.
std::string Z85Encode(const uint8_t* data, size_t size);
inline std::string Z85Encode(std::string_view bytes) {
  return Z85Encode(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

// Decodes `text` (length a multiple of 5); Corruption on a bad character or length. A group
// whose value exceeds 2^32-1 keeps its low 32 bits, as Delta's reference codec does.
Result<std::vector<uint8_t>> Z85Decode(std::string_view text);

// A 16-byte UUID as 20 Z85 characters (big-endian, as Java's UUID msb/lsb), and back to the
// canonical "8-4-4-4-12" text form.
std::string Z85EncodeUuid(const uint8_t uuid[16]);
Result<std::string> Z85DecodeUuidToText(std::string_view text20);
std::string UuidToText(const uint8_t uuid[16]);

}  // namespace shoal::delta
