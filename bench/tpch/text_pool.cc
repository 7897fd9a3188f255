#include "tpch/text_pool.h"

#include "tpch/tpch_words.h"

namespace shoal::tpch {

namespace {

constexpr size_t kPoolBytes = size_t{8} << 20;

template <size_t N>
std::string_view Pick(Rng& rng, const std::array<std::string_view, N>& words) {
  return words[rng.Next() % N];
}

void Append(std::string* s, std::string_view w) {
  if (!s->empty() && s->back() != ' ') s->push_back(' ');
  s->append(w);
}

// noun phrase: noun | adjective noun | adjective, adjective noun | adverb adjective noun
void NounPhrase(Rng& rng, std::string* s) {
  switch (rng.Next() % 4) {
    case 0: Append(s, Pick(rng, kNouns)); break;
    case 1: Append(s, Pick(rng, kAdjectives)); Append(s, Pick(rng, kNouns)); break;
    case 2:
      Append(s, Pick(rng, kAdjectives));
      s->push_back(',');
      Append(s, Pick(rng, kAdjectives));
      Append(s, Pick(rng, kNouns));
      break;
    default: Append(s, Pick(rng, kAdverbs)); Append(s, Pick(rng, kAdjectives)); Append(s, Pick(rng, kNouns)); break;
  }
}

// verb phrase: verb | auxiliary verb | verb adverb | auxiliary verb adverb
void VerbPhrase(Rng& rng, std::string* s) {
  const uint64_t k = rng.Next() % 4;
  if (k & 1) Append(s, Pick(rng, kAuxiliaries));
  Append(s, Pick(rng, kVerbs));
  if (k & 2) Append(s, Pick(rng, kAdverbs));
}

// prepositional phrase: preposition the noun phrase
void PrepositionalPhrase(Rng& rng, std::string* s) {
  Append(s, Pick(rng, kPrepositions));
  Append(s, "the");
  NounPhrase(rng, s);
}

// The grammar's five sentence forms, each ending in a terminator.
void Sentence(Rng& rng, std::string* s) {
  NounPhrase(rng, s);
  switch (rng.Next() % 5) {
    case 0: VerbPhrase(rng, s); break;
    case 1: VerbPhrase(rng, s); PrepositionalPhrase(rng, s); break;
    case 2: VerbPhrase(rng, s); NounPhrase(rng, s); break;
    case 3: PrepositionalPhrase(rng, s); VerbPhrase(rng, s); NounPhrase(rng, s); break;
    default: PrepositionalPhrase(rng, s); VerbPhrase(rng, s); PrepositionalPhrase(rng, s); break;
  }
  s->append(Pick(rng, kTerminators));
  s->push_back(' ');
}

}  // namespace

const std::string& TextPool() {
  static const std::string pool = [] {
    std::string s;
    s.reserve(kPoolBytes + 256);
    Rng rng(99, 0, 0);
    while (s.size() < kPoolBytes) Sentence(rng, &s);
    s.resize(kPoolBytes);
    return s;
  }();
  return pool;
}

std::string_view Text(Rng& rng, int min_len, int max_len) {
  const std::string& pool = TextPool();
  const size_t len = static_cast<size_t>(rng.Uniform(min_len, max_len));
  const size_t offset = static_cast<size_t>(rng.Next() % (pool.size() - len));
  return std::string_view(pool).substr(offset, len);
}

void VString(Rng& rng, int min_len, int max_len, std::string* out) {
  static constexpr std::string_view kAlphabet =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,.";
  static_assert(kAlphabet.size() == 64);
  const int64_t len = rng.Uniform(min_len, max_len);
  for (int64_t i = 0; i < len; ++i) out->push_back(kAlphabet[rng.Next() % 64]);
}

}  // namespace shoal::tpch
