#include "delta/deletion_vector.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "delta/z85.h"
#include "support/testdata.h"

namespace shoal::delta {
namespace {

TEST(Z85, EncodesRfcHelloWorldVector) {
  const uint8_t hello[] = {0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B};
  EXPECT_EQ(Z85Encode(hello, 8), "HelloWorld");
  auto back = Z85Decode("HelloWorld");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, std::vector<uint8_t>(hello, hello + 8));
}

TEST(Z85, RejectsBadInput) {
  EXPECT_TRUE(Z85Decode("abcd").status().IsCorruption());    // length
  EXPECT_TRUE(Z85Decode("abcd~").status().IsCorruption());   // alphabet
}

// Delta's reference codec keeps the low 32 bits of a group above 2^32 - 1; the padded last group
// of an inline deletion vector in the kernel golden table cdf-table-with-dv is one.
TEST(Z85, AGroupAboveTwoToThe32KeepsItsLowBitsAsDeltasCodecDoes) {
  auto max = Z85Decode("#####");  // 85^5 - 1 = 4437053124 = 2^32 + 142085828
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(*max, (std::vector<uint8_t>{0x08, 0x78, 0x0E, 0xC4}));
  auto tail = Z85Decode("##093");  // 4436706008 = 2^32 + 141738712 (0x086EB2D8)
  ASSERT_TRUE(tail.ok());
  EXPECT_EQ(*tail, (std::vector<uint8_t>{0x08, 0x6E, 0xB2, 0xD8}));
}

TEST(Z85, RoundTripsRandomBytes) {
  std::mt19937 rng(7);
  for (int n = 0; n < 64; n += 4) {
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = static_cast<uint8_t>(rng());
    auto back = Z85Decode(Z85Encode(v.data(), v.size()));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, v);
  }
}

TEST(DeletionVector, SpecRelativePathExampleResolvesPrefixAndUuid) {
  DeletionVectorDescriptor d;
  d.storage_type = 'u';
  d.path_or_inline_dv = "ab^-aqEH.-t@S}K{vb[*k^";
  d.offset = 4;
  auto p = DeletionVectorFilePath("/mytable", d);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(*p, "/mytable/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
}

TEST(DeletionVector, SpecInlineExampleDecodesToDocumentedRows) {
  DeletionVectorDescriptor d;
  d.storage_type = 'i';
  d.path_or_inline_dv = "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";
  d.size_in_bytes = 40;
  d.cardinality = 6;
  auto fs = io::LocalFileSystem();
  auto dv = DeletionVector::Load(*fs, "/nonexistent", d);
  ASSERT_TRUE(dv.ok()) << dv.status().ToString();
  EXPECT_EQ(dv->ToVector(), (std::vector<uint64_t>{3, 4, 7, 11, 18, 29}));
}

TEST(DeletionVector, SetOperations) {
  DeletionVector a, b;
  a.AddRange(10, 20);
  a.Add(5ull << 32);
  b.AddMany(std::vector<uint64_t>{15, 16, 100, 5ull << 32}.data(), 4);
  EXPECT_EQ(a.Cardinality(), 11u);
  EXPECT_TRUE(a.Contains(5ull << 32));
  EXPECT_FALSE(a.Contains(20));
  DeletionVector u = a;
  u.UnionWith(b);
  EXPECT_EQ(u.Cardinality(), 12u);
  DeletionVector i = a;
  i.IntersectWith(b);
  EXPECT_EQ(i.ToVector(), (std::vector<uint64_t>{15, 16, 5ull << 32}));
  uint64_t sum = 0;
  int seen = 0;
  auto visit = [&](uint64_t r) {  // an lvalue callable
    sum += r;
    return ++seen < 3;
  };
  u.ForEach(visit);
  EXPECT_EQ(seen, 3);
  EXPECT_EQ(sum, 10u + 11 + 12);
}

TEST(DeletionVector, AddRangeSpansBuckets) {
  DeletionVector a;
  uint64_t b = (1ull << 32) - 2;
  a.AddRange(b, b + 5);
  EXPECT_EQ(a.ToVector(), (std::vector<uint64_t>{b, b + 1, b + 2, b + 3, b + 4}));
}

TEST(DeletionVector, SerializeRoundTripsValuesAbove32Bits) {
  std::mt19937_64 rng(1);
  DeletionVector dv;
  std::set<uint64_t> oracle;
  for (int i = 0; i < 5000; ++i) {
    uint64_t v = rng() % (1ull << 36);
    dv.Add(v);
    oracle.insert(v);
  }
  dv.AddRange(1000, 3000);
  for (uint64_t v = 1000; v < 3000; ++v) oracle.insert(v);
  dv.RunOptimize();
  std::string bytes = dv.Serialize();
  uint32_t magic = static_cast<uint8_t>(bytes[0]) | (static_cast<uint8_t>(bytes[1]) << 8) |
                   (static_cast<uint8_t>(bytes[2]) << 16) | (static_cast<uint32_t>(static_cast<uint8_t>(bytes[3])) << 24);
  EXPECT_EQ(magic, kDvPortableMagic);
  auto back = DeletionVector::Deserialize(bytes, "test");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ToVector(), std::vector<uint64_t>(oracle.begin(), oracle.end()));
  EXPECT_TRUE(*back == dv);
}

TEST(DeletionVector, DeserializeRejectsGarbageWithoutCrashing) {
  DeletionVector dv;
  dv.AddRange(0, 100);
  dv.Add(1ull << 33);
  std::string good = dv.Serialize();
  EXPECT_TRUE(DeletionVector::Deserialize("", "x").status().IsCorruption());
  EXPECT_TRUE(DeletionVector::Deserialize("abcdefgh", "x").status().IsCorruption());
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(DeletionVector::Deserialize(good.substr(0, n), "x").ok()) << n;
  }
  std::string huge = good;
  huge[4] = '\xff';  // bucket count
  EXPECT_TRUE(DeletionVector::Deserialize(huge, "x").status().IsCorruption());
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {  // random corruption must never crash
    std::string b = good;
    b[4 + rng() % (b.size() - 4)] = static_cast<char>(rng());
    (void)DeletionVector::Deserialize(b, "x");
  }
}

TEST(DeletionVector, FileWriteLoadAndInlineWrite) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  DeletionVector big, small;
  for (uint64_t i = 0; i < 1000; i += 3) big.Add(i);
  big.Add(1ull << 40);
  small.Add(7);
  auto d1 = WriteDeletionVector(*fs, dir.path(), big);
  ASSERT_TRUE(d1.ok()) << d1.status().ToString();
  EXPECT_EQ(d1->storage_type, 'u');
  EXPECT_EQ(d1->offset, 1);
  auto d2 = WriteDeletionVector(*fs, dir.path(), small);
  ASSERT_TRUE(d2.ok());
  EXPECT_EQ(d2->storage_type, 'i');
  for (const auto& d : {*d1, *d2}) {
    auto back = DeletionVector::Load(*fs, dir.path(), d);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(static_cast<int64_t>(back->Cardinality()), d.cardinality);
  }
  EXPECT_TRUE(*DeletionVector::Load(*fs, dir.path(), *d1) == big);
  // Several DVs in one file.
  auto ds = WriteDeletionVectorFile(*fs, dir.path(), {&big, &small});
  ASSERT_TRUE(ds.ok());
  ASSERT_EQ(ds->size(), 2u);
  EXPECT_GT(*(*ds)[1].offset, 1);
  EXPECT_TRUE(*DeletionVector::Load(*fs, dir.path(), (*ds)[1]) == small);
  EXPECT_TRUE(*DeletionVector::Load(*fs, dir.path(), (*ds)[0]) == big);
}

TEST(DeletionVector, CrcSizeAndCardinalityMismatchesAreCorruption) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  DeletionVector dv;
  dv.AddRange(0, 500);
  dv.Add(100000);
  auto d = WriteDeletionVector(*fs, dir.path(), dv, {.max_inline_bytes = 0});
  ASSERT_TRUE(d.ok());
  auto path = DeletionVectorFilePath(dir.path(), *d);
  ASSERT_TRUE(path.ok());
  std::string bytes = *fs->ReadAll(*path);
  // Flip one bitmap byte: CRC must catch it.
  std::string bad = bytes;
  bad[1 + 4 + 10] ^= 0x55;
  ASSERT_TRUE(fs->WriteAtomic(*path, bad).ok());
  auto r = DeletionVector::Load(*fs, dir.path(), *d);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_NE(r.status().message().find("CRC"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find(*path), std::string::npos);
  ASSERT_TRUE(fs->WriteAtomic(*path, bytes).ok());
  auto wrong_card = *d;
  wrong_card.cardinality += 1;
  EXPECT_TRUE(DeletionVector::Load(*fs, dir.path(), wrong_card).status().IsCorruption());
  auto wrong_size = *d;
  wrong_size.size_in_bytes -= 1;
  EXPECT_TRUE(DeletionVector::Load(*fs, dir.path(), wrong_size).status().IsCorruption());
  auto past_end = *d;
  past_end.offset = 1 << 30;
  EXPECT_TRUE(DeletionVector::Load(*fs, dir.path(), past_end).status().IsCorruption());
  ASSERT_TRUE(fs->WriteAtomic(*path, std::string("\x02") + bytes.substr(1)).ok());
  EXPECT_TRUE(DeletionVector::Load(*fs, dir.path(), *d).status().IsCorruption());
}

TEST(DeletionVector, RelativePrefixCannotEscapeTable) {
  DeletionVectorDescriptor d;
  d.storage_type = 'u';
  d.path_or_inline_dv = "../^-aqEH.-t@S}K{vb[*k^";
  EXPECT_EQ(DeletionVectorFilePath("/t", d).status().code(), StatusCode::kInvalidArgument);
  d.storage_type = 'p';
  d.path_or_inline_dv = "file:///etc/passwd";
  EXPECT_EQ(DeletionVectorFilePath("/t", d).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace shoal::delta
