// The S3 file system against a real local S3 server (Ceph RADOS Gateway, scripts/s3-server.sh);
// no mock. The parsers' tests need no server.
#include "io/s3_file_system.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "io/routing_file_system.h"
#include "io/s3_uri.h"
#include "io/s3_xml.h"
#include "support/s3_test_server.h"

namespace shoal::io {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::set<std::string> Names(const std::vector<FileInfo>& entries, bool dirs) {
  std::set<std::string> out;
  for (const auto& e : entries) {
    if (e.is_dir == dirs) out.insert(e.name);
  }
  return out;
}

TEST(S3Uri, ParsesBucketAndKey) {
  auto loc = ParseS3Path("s3://bucket/a/b/c.json");
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->bucket, "bucket");
  EXPECT_EQ(loc->key, "a/b/c.json");
  auto root = ParseS3Path("s3://bucket/prefix/");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->key, "prefix");
  EXPECT_EQ(ParseS3Path("s3://bucket")->key, "");
  EXPECT_EQ(ParseS3Path("s3:///key").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseS3Path("s3://bu cket/key").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseS3Path("/local/path").status().code(), StatusCode::kInvalidArgument);
}

TEST(S3Uri, EncodesAsSigV4Wants) {
  EXPECT_EQ(UriEncode("a/b c+d=e~f_g.h-i", true), "a/b%20c%2Bd%3De~f_g.h-i");
  EXPECT_EQ(UriEncode("a/b", false), "a%2Fb");
  EXPECT_EQ(UriEncode("\xC3\xA9", true), "%C3%A9");
}

TEST(S3Xml, ParsesListObjectsV2Page) {
  std::string xml =
      "<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name><Prefix>t/</Prefix>"
      "<Contents><Key>t/a&amp;b.json</Key><LastModified>2026-12-07T06:47:52.123Z</LastModified>"
      "<ETag>&quot;x&quot;</ETag><Size>12</Size></Contents>"
      "<Contents><Key>t/c</Key><Size>0</Size></Contents>"
      "<CommonPrefixes><Prefix>t/sub/</Prefix></CommonPrefixes>"
      "<IsTruncated>true</IsTruncated><NextContinuationToken>tok+/=</NextContinuationToken></ListBucketResult>";
  auto page = ParseListObjectsV2(xml);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "t/a&b.json");
  EXPECT_EQ(page->objects[0].size, 12);
  EXPECT_EQ(page->objects[0].mtime_ms, 1796626072123);  // date -u -d @1796626072
  ASSERT_EQ(page->common_prefixes.size(), 1u);
  EXPECT_EQ(page->common_prefixes[0], "t/sub/");
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_continuation_token, "tok+/=");
}

TEST(S3Xml, BadListAnswersAreCorruptionNotCrashes) {
  for (std::string bad : {"", "<html>", "<ListBucketResult><Contents><Key>a</Key><Size>x</Size></Contents>",
                          "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>",
                          "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
                          "<ListBucketResult><Contents><Key>a", "<ListBucketResult><Contents><Key>a</Key><Size>-4</Size>"
                          "</Contents></ListBucketResult>"}) {
    auto page = ParseListObjectsV2(bad);
    EXPECT_FALSE(page.ok() && !page->objects.empty() && page->objects[0].size < 0) << bad;
    if (!page.ok()) {
      EXPECT_EQ(page.status().code(), StatusCode::kCorruption) << bad;
    }
  }
  EXPECT_EQ(XmlUnescape("&lt;&#65;&#x42;&bogus;&"), "<AB&bogus;&");
}

TEST(S3Xml, ParsesBothTimeForms) {
  EXPECT_EQ(ParseS3Time("1970-01-01T00:00:01.500Z"), 1500);
  EXPECT_EQ(ParseS3Time("Thu, 01 Jan 1970 00:01:00 GMT"), 60000);
  EXPECT_FALSE(ParseS3Time("yesterday").has_value());
  EXPECT_FALSE(ParseS3Time("2026-13-45T99:00:00Z").has_value());
}

class S3FileSystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SHOAL_REQUIRE_S3(server);
    server_ = server;
    fs_ = std::make_shared<S3FileSystem>(server_.Options());
    root_ = server_.UniquePath("fs");
  }
  void TearDown() override {
    if (fs_) (void)fs_->DeleteRecursive(root_);
  }
  std::string P(const std::string& name) const { return JoinPath(root_, name); }

  testing::S3TestServer server_;
  std::shared_ptr<S3FileSystem> fs_;
  std::string root_;
};

TEST_F(S3FileSystemTest, WriteThenReadBackWholeAndRanges) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data += std::to_string(i) + ",";
  ASSERT_TRUE(fs_->WriteAtomic(P("a.txt"), data).ok());
  auto all = fs_->ReadAll(P("a.txt"));
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, data);
  auto file = fs_->OpenForRead(P("a.txt"));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->Size(), static_cast<int64_t>(data.size()));
  std::string mid(100, '\0');
  ASSERT_TRUE((*file)->ReadAt(1234, 100, reinterpret_cast<uint8_t*>(mid.data())).ok());
  EXPECT_EQ(mid, data.substr(1234, 100));
  std::string tail(7, '\0');
  ASSERT_TRUE((*file)->ReadAt((*file)->Size() - 7, 7, reinterpret_cast<uint8_t*>(tail.data())).ok());
  EXPECT_EQ(tail, data.substr(data.size() - 7));
  EXPECT_TRUE((*file)->ReadAt(5, 0, nullptr).ok());
  EXPECT_EQ((*file)->ReadAt((*file)->Size() - 3, 4, reinterpret_cast<uint8_t*>(tail.data())).code(),
            StatusCode::kCorruption);
  auto st = fs_->Stat(P("a.txt"));
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->size, static_cast<int64_t>(data.size()));
  EXPECT_FALSE(st->is_dir);
  EXPECT_GT(st->mtime_ms, 0);
  // Overwrite replaces.
  ASSERT_TRUE(fs_->WriteAtomic(P("a.txt"), "short").ok());
  EXPECT_EQ(*fs_->ReadAll(P("a.txt")), "short");
  // An empty object.
  ASSERT_TRUE(fs_->WriteAtomic(P("empty"), "").ok());
  EXPECT_EQ(*fs_->ReadAll(P("empty")), "");
}

TEST_F(S3FileSystemTest, MissingKeyIsNoSuchFileLikeLocal) {
  for (auto st : {fs_->ReadAll(P("nope")).status(), fs_->OpenForRead(P("nope")).status(),
                  fs_->Stat(P("nope")).status()}) {
    EXPECT_EQ(st.code(), StatusCode::kIOError);
    EXPECT_NE(st.message().find("No such file or directory"), std::string::npos) << st.ToString();
    EXPECT_FALSE(IsAlreadyExists(st));
  }
  auto exists = fs_->Exists(P("nope"));
  ASSERT_TRUE(exists.ok());
  EXPECT_FALSE(*exists);
}

TEST_F(S3FileSystemTest, DirectoriesArePrefixes) {
  ASSERT_TRUE(fs_->CreateDirs(P("d/e")).ok());
  EXPECT_FALSE(*fs_->Exists(P("d")));  // nothing under it yet
  ASSERT_TRUE(fs_->WriteAtomic(P("d/e/f.json"), "{}").ok());
  EXPECT_TRUE(*fs_->Exists(P("d")));
  EXPECT_TRUE(*fs_->Exists(P("d/e")));
  EXPECT_TRUE(*fs_->Exists(P("d/e/f.json")));
  auto st = fs_->Stat(P("d/e"));
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE(st->is_dir);
  auto listing = fs_->List(P("d"));
  ASSERT_TRUE(listing.ok());
  EXPECT_EQ(Names(*listing, true), std::set<std::string>{"e"});
  EXPECT_TRUE(Names(*listing, false).empty());
  EXPECT_TRUE(fs_->List(P("missing"))->empty());
}

TEST_F(S3FileSystemTest, ListPaginatesAndStartsFrom) {
  S3Options small = server_.Options();
  small.list_page_size = 3;  // 12 entries over 4+ pages
  S3FileSystem fs(small);
  std::set<std::string> files;
  for (int i = 0; i < 10; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "%020d.json", i);
    files.insert(name);
    ASSERT_TRUE(fs.WriteAtomic(P(std::string("log/") + name), "x" + std::to_string(i)).ok());
  }
  ASSERT_TRUE(fs.WriteAtomic(P("log/zz/one"), "1").ok());
  ASSERT_TRUE(fs.WriteAtomic(P("log/zz/two"), "2").ok());
  ASSERT_TRUE(fs.WriteAtomic(P("log/_last_checkpoint"), "{}").ok());
  const int64_t lists_before = fs.stats().requests[static_cast<int>(S3RequestKind::kList)];
  auto listing = fs.List(P("log"));
  ASSERT_TRUE(listing.ok()) << listing.status().ToString();
  std::set<std::string> want = files;
  want.insert("_last_checkpoint");
  EXPECT_EQ(Names(*listing, false), want);
  EXPECT_EQ(Names(*listing, true), std::set<std::string>{"zz"});
  EXPECT_GE(fs.stats().requests[static_cast<int>(S3RequestKind::kList)] - lists_before, 4);
  for (const auto& e : *listing) {
    if (e.name == "00000000000000000007.json") {
      EXPECT_EQ(e.size, 2);
    }
  }
  // From a start name: that name and everything after it, nothing before.
  auto from = fs.ListFrom(P("log"), "00000000000000000007");
  ASSERT_TRUE(from.ok()) << from.status().ToString();
  EXPECT_EQ(Names(*from, false), (std::set<std::string>{"00000000000000000007.json", "00000000000000000008.json",
                                                         "00000000000000000009.json", "_last_checkpoint"}));
  EXPECT_EQ(Names(*from, true), std::set<std::string>{"zz"});
  auto exact = fs.ListFrom(P("log"), "00000000000000000009.json");
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(Names(*exact, false).count("00000000000000000009.json"), 1u);
  EXPECT_EQ(Names(*exact, false).count("00000000000000000008.json"), 0u);
}

TEST_F(S3FileSystemTest, KeysWithSpecialCharactersRoundTrip) {
  const std::string dir = "odd dir+=&";
  const std::string name = "part=1 x+y,z&w\xC3\xA9.parquet";
  ASSERT_TRUE(fs_->WriteAtomic(P(dir + "/" + name), "v").ok());
  EXPECT_EQ(*fs_->ReadAll(P(dir + "/" + name)), "v");
  auto listing = fs_->ListFrom(P(dir), "part");
  ASSERT_TRUE(listing.ok()) << listing.status().ToString();
  EXPECT_EQ(Names(*listing, false), std::set<std::string>{name});
}

TEST_F(S3FileSystemTest, PutIfAbsentSecondWriterGetsAlreadyExists) {
  ASSERT_TRUE(fs_->PutIfAbsent(P("_delta_log/0.json"), "first").ok());
  Status st = fs_->PutIfAbsent(P("_delta_log/0.json"), "second");
  EXPECT_TRUE(IsAlreadyExists(st)) << st.ToString();
  EXPECT_EQ(*fs_->ReadAll(P("_delta_log/0.json")), "first");
}

TEST_F(S3FileSystemTest, EightThreadsPutIfAbsentOneKeyExactlyOneWinner) {
  for (int round = 0; round < 5; ++round) {
    const std::string path = P("race/" + std::to_string(round) + ".json");
    std::atomic<int> ready{0}, winners{0}, losers{0}, other{0};
    std::atomic<int> winner_id{-1};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < 8) std::this_thread::yield();
        Status st = fs_->PutIfAbsent(path, "writer " + std::to_string(t));
        if (st.ok()) {
          winners.fetch_add(1);
          winner_id.store(t);
        } else if (IsAlreadyExists(st)) {
          losers.fetch_add(1);
        } else {
          other.fetch_add(1);
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(winners.load(), 1) << "round " << round;
    EXPECT_EQ(losers.load(), 7) << "round " << round;
    EXPECT_EQ(other.load(), 0) << "round " << round;
    EXPECT_EQ(*fs_->ReadAll(path), "writer " + std::to_string(winner_id.load()));
  }
}

TEST_F(S3FileSystemTest, SmallWritableFileAppearsOnlyAtClose) {
  auto f = fs_->OpenForWrite(P("small.bin"));
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append("hello ").ok());
  ASSERT_TRUE((*f)->Append("world").ok());
  ASSERT_TRUE((*f)->Sync().ok());
  EXPECT_EQ((*f)->Tell(), 11);
  EXPECT_FALSE(*fs_->Exists(P("small.bin")));
  ASSERT_TRUE((*f)->Close().ok());
  ASSERT_TRUE((*f)->Close().ok());  // idempotent
  EXPECT_EQ(*fs_->ReadAll(P("small.bin")), "hello world");
  EXPECT_EQ((*f)->Append("x").code(), StatusCode::kIOError);
}

TEST_F(S3FileSystemTest, LargeWritableFileUsesMultipartUpload) {
  const int64_t mib = 1 << 20;
  const int64_t total = 20 * mib + 12345;  // two full 8 MiB parts and a smaller last one
  std::string chunk(static_cast<size_t>(mib), '\0');
  const S3Stats before = fs_->stats();
  auto f = fs_->OpenForWrite(P("big.bin"));
  ASSERT_TRUE(f.ok());
  int64_t written = 0;
  uint32_t x = 12345;
  std::string expected;
  while (written < total) {
    size_t n = static_cast<size_t>(std::min<int64_t>(mib, total - written));
    for (size_t i = 0; i < n; ++i) {
      x = x * 1103515245u + 12345u;
      chunk[i] = static_cast<char>(x >> 24);
    }
    ASSERT_TRUE((*f)->Append(chunk.data(), n).ok());
    expected.append(chunk.data(), n);
    written += static_cast<int64_t>(n);
  }
  EXPECT_FALSE(*fs_->Exists(P("big.bin")));  // parts are not an object yet
  ASSERT_TRUE((*f)->Close().ok());
  const S3Stats after = fs_->stats();
  // create + 3 parts + complete.
  EXPECT_GE(after.requests[static_cast<int>(S3RequestKind::kPut)] - before.requests[static_cast<int>(S3RequestKind::kPut)], 5);
  auto st = fs_->Stat(P("big.bin"));
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->size, total);
  auto file = fs_->OpenForRead(P("big.bin"));
  ASSERT_TRUE(file.ok());
  for (int64_t off : {int64_t{0}, 8 * mib - 10, 16 * mib - 1, total - 100}) {
    std::string got(100, '\0');
    int64_t len = std::min<int64_t>(100, total - off);
    ASSERT_TRUE((*file)->ReadAt(off, len, reinterpret_cast<uint8_t*>(got.data())).ok());
    EXPECT_EQ(got.substr(0, static_cast<size_t>(len)), expected.substr(static_cast<size_t>(off), static_cast<size_t>(len)))
        << "offset " << off;
  }
  EXPECT_EQ(*fs_->ReadAll(P("big.bin")), expected);
}

TEST_F(S3FileSystemTest, DeleteAndDeleteRecursive) {
  for (const char* name : {"t/a", "t/b/c", "t/b/d/e", "tt/keep"}) ASSERT_TRUE(fs_->WriteAtomic(P(name), "x").ok());
  ASSERT_TRUE(fs_->Delete(P("t/a")).ok());
  EXPECT_FALSE(*fs_->Exists(P("t/a")));
  EXPECT_TRUE(fs_->Delete(P("t/a")).ok());  // S3 DELETE is idempotent
  ASSERT_TRUE(fs_->DeleteRecursive(P("t")).ok());
  EXPECT_FALSE(*fs_->Exists(P("t")));
  EXPECT_TRUE(*fs_->Exists(P("tt/keep")));  // a sibling sharing the name's prefix stays
  EXPECT_TRUE(fs_->DeleteRecursive(P("never-there")).ok());
}

TEST_F(S3FileSystemTest, RenameIsCopyThenDelete) {
  ASSERT_TRUE(fs_->WriteAtomic(P("log/.tmp"), "checkpoint").ok());
  ASSERT_TRUE(fs_->Rename(P("log/.tmp"), P("log/1.checkpoint.parquet")).ok());
  EXPECT_FALSE(*fs_->Exists(P("log/.tmp")));
  EXPECT_EQ(*fs_->ReadAll(P("log/1.checkpoint.parquet")), "checkpoint");
  Status missing = fs_->Rename(P("log/.gone"), P("log/x"));
  EXPECT_NE(missing.message().find("No such file or directory"), std::string::npos) << missing.ToString();
}

TEST_F(S3FileSystemTest, ListFromLimitedStopsAfterItsEntriesAndSaysSo) {
  S3Options small = server_.Options();
  small.list_page_size = 2;
  S3FileSystem fs(small);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(fs.WriteAtomic(P("log/" + std::to_string(i)), "x").ok());
  auto first = fs.ListFromLimited(P("log"), "", 3);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_EQ(first->entries.size(), 3u);
  EXPECT_FALSE(first->complete);
  EXPECT_EQ(first->entries[0].name, "0");
  EXPECT_EQ(first->entries[2].name, "2");
  auto all = fs.ListFromLimited(P("log"), "1", 10);
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->complete);
  ASSERT_EQ(all->entries.size(), 4u);
  EXPECT_EQ(all->entries.front().name, "1");
  EXPECT_EQ(all->entries.back().name, "4");
}

// Speculated reads go out together and are handed to the calls that ask for them, which send
// nothing; writes through the file system forget them.
TEST_F(S3FileSystemTest, SpeculatedReadsAnswerTheCallsThatAskForThem) {
  ASSERT_TRUE(fs_->WriteAtomic(P("t/_delta_log/a.json"), "one").ok());
  ASSERT_TRUE(fs_->WriteAtomic(P("t/_delta_log/b.json"), "two").ok());
  fs_->Speculate({{SpeculativeRead::Kind::kReadAll, P("t/_delta_log/a.json"), {}, 0},
                  {SpeculativeRead::Kind::kExists, P("t/_delta_log"), {}, 0},
                  {SpeculativeRead::Kind::kExists, P("view.json"), {}, 0},
                  {SpeculativeRead::Kind::kListFromLimited, P("t/_delta_log"), {}, 1000},
                  {SpeculativeRead::Kind::kReadAll, P("t/_delta_log/missing"), {}, 0}});
  // Wait for the answers, then count: taking them sends nothing.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const S3Stats before = fs_->stats();
  auto text = fs_->ReadAll(P("t/_delta_log/a.json"));
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "one");
  auto log_exists = fs_->Exists(P("t/_delta_log"));
  ASSERT_TRUE(log_exists.ok());
  EXPECT_TRUE(*log_exists);
  auto view_exists = fs_->Exists(P("view.json"));
  ASSERT_TRUE(view_exists.ok());
  EXPECT_FALSE(*view_exists);
  auto listed = fs_->ListFromLimited(P("t/_delta_log"), "", 1000);
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->complete);
  EXPECT_EQ(Names(listed->entries, false), (std::set<std::string>{"a.json", "b.json"}));
  auto missing = fs_->ReadAll(P("t/_delta_log/missing"));
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("No such file"), std::string::npos) << missing.status().ToString();
  const S3Stats after = fs_->stats();
  for (int k = 0; k < kS3RequestKinds; ++k) EXPECT_EQ(after.requests[k], before.requests[k]) << k;
  // Taken once: the next call asks the server again.
  ASSERT_TRUE(fs_->ReadAll(P("t/_delta_log/a.json")).ok());
  EXPECT_EQ(fs_->stats().requests[static_cast<int>(S3RequestKind::kGet)], after.requests[static_cast<int>(S3RequestKind::kGet)] + 1);
  // A write forgets what was speculated before it: no stale answer.
  fs_->Speculate({{SpeculativeRead::Kind::kReadAll, P("t/_delta_log/b.json"), {}, 0}});
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(fs_->WriteAtomic(P("t/_delta_log/b.json"), "changed").ok());
  auto changed = fs_->ReadAll(P("t/_delta_log/b.json"));
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(*changed, "changed");
  // DropSpeculation forgets too.
  fs_->Speculate({{SpeculativeRead::Kind::kReadAll, P("t/_delta_log/a.json"), {}, 0}});
  fs_->DropSpeculation();
  const int64_t gets = fs_->stats().requests[static_cast<int>(S3RequestKind::kGet)];
  ASSERT_TRUE(fs_->ReadAll(P("t/_delta_log/a.json")).ok());
  EXPECT_EQ(fs_->stats().requests[static_cast<int>(S3RequestKind::kGet)], gets + 1);
}

TEST_F(S3FileSystemTest, CountsRequestsAndBytesPerKind) {
  const S3Stats before = fs_->stats();
  ASSERT_TRUE(fs_->WriteAtomic(P("c"), std::string(1000, 'c')).ok());
  ASSERT_TRUE(fs_->ReadAll(P("c")).ok());
  ASSERT_TRUE(fs_->Stat(P("c")).ok());
  ASSERT_TRUE(fs_->List(root_).ok());
  ASSERT_TRUE(fs_->Delete(P("c")).ok());
  const S3Stats after = fs_->stats();
  auto delta = [&](S3RequestKind k) { return after.requests[static_cast<int>(k)] - before.requests[static_cast<int>(k)]; };
  EXPECT_EQ(delta(S3RequestKind::kPut), 1);
  EXPECT_EQ(delta(S3RequestKind::kGet), 1);
  EXPECT_EQ(delta(S3RequestKind::kHead), 1);
  EXPECT_EQ(delta(S3RequestKind::kList), 1);
  EXPECT_EQ(delta(S3RequestKind::kDelete), 1);
  EXPECT_EQ(after.bytes_out[static_cast<int>(S3RequestKind::kPut)] - before.bytes_out[static_cast<int>(S3RequestKind::kPut)], 1000);
  EXPECT_EQ(after.bytes_in[static_cast<int>(S3RequestKind::kGet)] - before.bytes_in[static_cast<int>(S3RequestKind::kGet)], 1000);
}

TEST_F(S3FileSystemTest, SequentialRequestsReuseOneConnection) {
  ASSERT_TRUE(fs_->WriteAtomic(P("r"), "reuse").ok());
  const S3Stats before = fs_->stats();
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(fs_->Stat(P("r")).ok());
  const S3Stats after = fs_->stats();
  EXPECT_EQ(after.Requests() - before.Requests(), 20);
  EXPECT_LE(after.connections - before.connections, 1);
}

TEST_F(S3FileSystemTest, WrongAccessKeyIsNamedAccessDenied) {
  S3Options bad = server_.Options();
  bad.access_key_id = "NOT-A-KEY";
  S3FileSystem fs(bad);
  auto t0 = Clock::now();
  Status st = fs.CreateDirs(P("x"));
  EXPECT_LT(SecondsSince(t0), 5.0);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("S3 access denied"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("InvalidAccessKeyId"), std::string::npos) << st.ToString();
  EXPECT_EQ(st.message().find(bad.secret_access_key), std::string::npos) << "secret in: " << st.ToString();
  Status put = fs.WriteAtomic(P("x"), "nothing");
  EXPECT_NE(put.message().find("S3 access denied"), std::string::npos) << put.ToString();
  EXPECT_FALSE(*fs_->Exists(P("x")));  // nothing written
}

TEST_F(S3FileSystemTest, WrongSecretIsNamedSignatureMismatch) {
  S3Options bad = server_.Options();
  bad.secret_access_key = "wrong-secret-value-123";
  bad.session_token = "session-token-value-456";
  S3FileSystem fs(bad);
  Status st = fs.ReadAll(P("x")).status();
  EXPECT_NE(st.message().find("S3 access denied"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("SignatureDoesNotMatch"), std::string::npos) << st.ToString();
  EXPECT_EQ(st.message().find("wrong-secret-value-123"), std::string::npos);
  EXPECT_EQ(st.message().find("session-token-value-456"), std::string::npos);
}

TEST_F(S3FileSystemTest, MissingBucketIsNamed) {
  auto t0 = Clock::now();
  Status st = fs_->CreateDirs("s3://shoal-no-such-bucket/wh");
  EXPECT_LT(SecondsSince(t0), 5.0);
  EXPECT_NE(st.message().find("NoSuchBucket"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("shoal-no-such-bucket"), std::string::npos) << st.ToString();
  auto exists = fs_->Exists("s3://shoal-no-such-bucket");
  ASSERT_TRUE(exists.ok());
  EXPECT_FALSE(*exists);
}

TEST_F(S3FileSystemTest, UnreachableEndpointFailsFastWithNamedError) {
  S3Options gone = server_.Options();
  gone.endpoint = "http://127.0.0.1:1";  // nothing listens on port 1
  gone.connect_timeout_ms = 500;
  S3FileSystem fs(gone);
  auto t0 = Clock::now();
  Status st = fs.PutIfAbsent(P("x"), "y");
  EXPECT_LT(SecondsSince(t0), 10.0);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("unreachable"), std::string::npos) << st.ToString();
  EXPECT_FALSE(IsAlreadyExists(st));
}

TEST_F(S3FileSystemTest, SilentEndpointTimesOutWithinTheConfiguredBound) {
  // A listener that never accepts: connects queue in its backlog and no answer ever comes.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof(addr);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  S3Options silent = server_.Options();
  silent.endpoint = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  silent.connect_timeout_ms = 300;
  silent.request_timeout_ms = 400;
  silent.max_attempts = 3;
  S3FileSystem fs(silent);
  auto t0 = Clock::now();
  auto got = fs.ReadAll(P("x"));
  const double seconds = SecondsSince(t0);
  ::close(fd);
  ASSERT_FALSE(got.ok());
  EXPECT_LT(seconds, 3 * 0.4 + 1.0);
  EXPECT_NE(got.status().message().find("timed out"), std::string::npos) << got.status().ToString();
}

TEST_F(S3FileSystemTest, RoutingSendsS3PathsToS3AndKeepsLocalPaths) {
  RoutingFileSystem routing(LocalFileSystem(), [&] { return server_.Options(); });
  EXPECT_EQ(routing.s3_if_used(), nullptr);
  ASSERT_TRUE(routing.WriteAtomic(P("routed"), "r").ok());
  ASSERT_NE(routing.s3_if_used(), nullptr);
  EXPECT_EQ(*fs_->ReadAll(P("routed")), "r");
  auto local = routing.Exists("/definitely/not/here");
  ASSERT_TRUE(local.ok());
  EXPECT_FALSE(*local);
  EXPECT_EQ(routing.Rename(P("routed"), "/tmp/x").code(), StatusCode::kNotSupported);
}

}  // namespace
}  // namespace shoal::io
