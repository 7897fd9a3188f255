#include "delta/z85.h"

#include <array>

namespace shoal::delta {

namespace {

constexpr char kAlphabet[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 85; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  return t;
}
constexpr std::array<int8_t, 256> kDecode = MakeDecodeTable();

}  // namespace

std::string Z85Encode(const uint8_t* data, size_t size) {
  size_t groups = (size + 3) / 4;
  std::string out;
  out.resize(groups * 5);
  for (size_t g = 0; g < groups; ++g) {
    uint32_t v = 0;
    for (size_t k = 0; k < 4; ++k) {
      size_t i = g * 4 + k;
      v = (v << 8) | (i < size ? data[i] : 0);
    }
    for (int k = 4; k >= 0; --k) {
      out[g * 5 + k] = kAlphabet[v % 85];
      v /= 85;
    }
  }
  return out;
}

Result<std::vector<uint8_t>> Z85Decode(std::string_view text) {
  if (text.size() % 5 != 0) {
    return Status::Corruption("Z85 text of length " + std::to_string(text.size()) +
                              " is not a multiple of 5");
  }
  std::vector<uint8_t> out(text.size() / 5 * 4);
  for (size_t g = 0; g < text.size() / 5; ++g) {
    uint64_t v = 0;
    for (size_t k = 0; k < 5; ++k) {
      int8_t d = kDecode[static_cast<unsigned char>(text[g * 5 + k])];
      if (d < 0) {
        return Status::Corruption("invalid Z85 character at position " +
                                  std::to_string(g * 5 + k));
      }
      v = v * 85 + static_cast<uint64_t>(d);
    }
    // A group above 2^32 - 1 is not valid Z85, but Delta's reference codec (Base85Codec) keeps
    // the low 32 bits of it, and writers have produced such groups as the padded last group of
    // an inline deletion vector (kernel golden table cdf-table-with-dv): read them the same way.
    v &= 0xFFFFFFFFull;
    out[g * 4 + 0] = static_cast<uint8_t>(v >> 24);
    out[g * 4 + 1] = static_cast<uint8_t>(v >> 16);
    out[g * 4 + 2] = static_cast<uint8_t>(v >> 8);
    out[g * 4 + 3] = static_cast<uint8_t>(v);
  }
  return out;
}

std::string Z85EncodeUuid(const uint8_t uuid[16]) { return Z85Encode(uuid, 16); }

std::string UuidToText(const uint8_t uuid[16]) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[uuid[i] >> 4]);
    out.push_back(kHex[uuid[i] & 15]);
  }
  return out;
}

Result<std::string> Z85DecodeUuidToText(std::string_view text20) {
  if (text20.size() != 20) {
    return Status::Corruption("encoded UUID '" + std::string(text20) + "' is not 20 characters");
  }
  ASSIGN_OR_RETURN(auto bytes, Z85Decode(text20));
  return UuidToText(bytes.data());
}

}  // namespace shoal::delta
