// What each fault between shoal and S3 does (doc/object_storage.md), against the real local
// server: an S3FaultInjector rewrites single exchanges — 503 SlowDown, a connection reset after
// the server acted, a timeout before it did, a 500 after a write, a truncated body — and every
// operation still gives the right answer or a named error; a conditional PUT is never sent again
// blindly.
#include <curl/curl.h>
#include <gtest/gtest.h>

#include <atomic>
#include <functional>

#include "io/s3_file_system.h"
#include "support/s3_test_server.h"

namespace shoal::io {
namespace {

bool IsConditionalPut(const S3Request& r) {
  return r.method == "PUT" && !r.headers.empty() && r.headers[0] == "If-None-Match: *";
}

class Faults final : public S3FaultInjector {
 public:
  std::function<bool(const S3Request&, S3Response*, int*)> before;
  std::function<void(const S3Request&, S3Response*, int*)> after;
  bool BeforeSend(const S3Request& req, S3Response* fake, int* code) override {
    return before && before(req, fake, code);
  }
  void AfterSend(const S3Request& req, S3Response* resp, int* code) override {
    if (after) after(req, resp, code);
  }
};

int64_t Count(const S3Stats& s, S3RequestKind k) { return s.requests[static_cast<int>(k)]; }

class S3FaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SHOAL_REQUIRE_S3(server);
    S3Options o = server.Options();
    o.initial_backoff_ms = 5;
    o.max_backoff_ms = 20;
    fs_ = std::make_shared<S3FileSystem>(o);
    faults_ = std::make_shared<Faults>();
    fs_->SetFaultInjector(faults_);
    root_ = server.UniquePath("faults");
  }
  void TearDown() override {
    if (!fs_) return;
    fs_->SetFaultInjector(nullptr);
    (void)fs_->DeleteRecursive(root_);
  }
  std::string P(const std::string& name) const { return JoinPath(root_, name); }

  std::shared_ptr<S3FileSystem> fs_;
  std::shared_ptr<Faults> faults_;
  std::string root_;
};

TEST_F(S3FaultTest, ConditionalPutResetAfterTheServerActedIsReadBackAndWon) {
  std::atomic<int> resets{0};
  faults_->after = [&](const S3Request& r, S3Response* resp, int* code) {
    if (IsConditionalPut(r) && resets.fetch_add(1) == 0) {
      *resp = S3Response();
      *code = CURLE_RECV_ERROR;  // the object landed; the answer was lost
    }
  };
  const S3Stats before = fs_->stats();
  ASSERT_TRUE(fs_->PutIfAbsent(P("_delta_log/00000000000000000001.json"), "commit by A").ok());
  const S3Stats after = fs_->stats();
  EXPECT_EQ(Count(after, S3RequestKind::kPut) - Count(before, S3RequestKind::kPut), 1) << "sent again blindly";
  EXPECT_EQ(Count(after, S3RequestKind::kGet) - Count(before, S3RequestKind::kGet), 1) << "no read-back";
  faults_->after = nullptr;
  EXPECT_EQ(*fs_->ReadAll(P("_delta_log/00000000000000000001.json")), "commit by A");
}

TEST_F(S3FaultTest, ConditionalPutResetWhenAnotherWriterHadWonIsAlreadyExists) {
  ASSERT_TRUE(fs_->PutIfAbsent(P("c.json"), "commit by B").ok());
  faults_->after = [&](const S3Request& r, S3Response* resp, int* code) {
    if (IsConditionalPut(r)) {
      *resp = S3Response();
      *code = CURLE_SEND_ERROR;  // the 412 never reached us
    }
  };
  Status st = fs_->PutIfAbsent(P("c.json"), "commit by A");
  EXPECT_TRUE(IsAlreadyExists(st)) << st.ToString();
  faults_->after = nullptr;
  EXPECT_EQ(*fs_->ReadAll(P("c.json")), "commit by B");
}

TEST_F(S3FaultTest, ConditionalPutTimingOutBeforeLandingIsSentAgainSafely) {
  std::atomic<int> timeouts{0};
  faults_->before = [&](const S3Request& r, S3Response*, int* code) {
    if (!IsConditionalPut(r) || timeouts.fetch_add(1) > 0) return false;
    *code = CURLE_OPERATION_TIMEDOUT;  // maybe sent: outcome unknown (it was not)
    return true;
  };
  ASSERT_TRUE(fs_->PutIfAbsent(P("t.json"), "mine").ok());
  EXPECT_EQ(timeouts.load(), 2);  // the unknown attempt, then the one after reading back "absent"
  faults_->before = nullptr;
  EXPECT_EQ(*fs_->ReadAll(P("t.json")), "mine");
}

TEST_F(S3FaultTest, ConditionalPutWhoseRetriesCannotBeSentReportsTheUnknownOutcome) {
  std::atomic<int> attempts{0};
  faults_->before = [&](const S3Request& r, S3Response*, int* code) {
    if (!IsConditionalPut(r)) return false;
    // First a timeout (maybe sent), then the endpoint goes away.
    *code = attempts.fetch_add(1) == 0 ? CURLE_OPERATION_TIMEDOUT : -CURLE_COULDNT_CONNECT;
    return true;
  };
  Status st = fs_->PutIfAbsent(P("u.json"), "mine");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_FALSE(IsAlreadyExists(st));
  EXPECT_NE(st.message().find("no certain outcome"), std::string::npos) << st.ToString();
}

TEST_F(S3FaultTest, ConditionalPut500AfterWritingIsReadBack) {
  faults_->after = [&](const S3Request& r, S3Response* resp, int*) {
    if (IsConditionalPut(r) && resp->status == 200) {
      resp->status = 500;
      resp->body = "<Error><Code>InternalError</Code></Error>";
    }
  };
  ASSERT_TRUE(fs_->PutIfAbsent(P("f.json"), "mine").ok());
  Status again = fs_->PutIfAbsent(P("f.json"), "someone else");
  EXPECT_TRUE(IsAlreadyExists(again)) << again.ToString();
}

TEST_F(S3FaultTest, ConnectFailureBeforeSendingIsRetriedWithoutReadBack) {
  std::atomic<int> refused{0};
  faults_->before = [&](const S3Request& r, S3Response*, int* code) {
    if (!IsConditionalPut(r) || refused.fetch_add(1) > 0) return false;
    *code = -CURLE_COULDNT_CONNECT;
    return true;
  };
  const S3Stats before = fs_->stats();
  ASSERT_TRUE(fs_->PutIfAbsent(P("r.json"), "mine").ok());
  EXPECT_EQ(Count(fs_->stats(), S3RequestKind::kGet), Count(before, S3RequestKind::kGet));
  EXPECT_GE(fs_->stats().retries - before.retries, 1);
}

TEST_F(S3FaultTest, SlowDownIsRetriedForEveryKindOfRequest) {
  std::atomic<int> n{0};
  faults_->before = [&](const S3Request&, S3Response* fake, int*) {
    if (n.fetch_add(1) % 3 == 2) return false;  // two 503s, then through
    fake->status = 503;
    fake->body = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
    return true;
  };
  const S3Stats before = fs_->stats();
  ASSERT_TRUE(fs_->WriteAtomic(P("a"), "alpha").ok());
  ASSERT_TRUE(fs_->PutIfAbsent(P("b"), "beta").ok());
  EXPECT_EQ(*fs_->ReadAll(P("a")), "alpha");
  auto listing = fs_->List(root_);
  ASSERT_TRUE(listing.ok()) << listing.status().ToString();
  EXPECT_EQ(listing->size(), 2u);
  auto file = fs_->OpenForRead(P("b"));
  ASSERT_TRUE(file.ok());
  std::string two(2, '\0');
  ASSERT_TRUE((*file)->ReadAt(1, 2, reinterpret_cast<uint8_t*>(two.data())).ok());
  EXPECT_EQ(two, "et");
  ASSERT_TRUE(fs_->Delete(P("a")).ok());
  EXPECT_GE(fs_->stats().retries - before.retries, 12);
}

TEST_F(S3FaultTest, PersistentSlowDownIsANamedErrorAndWritesNothing) {
  faults_->before = [&](const S3Request& r, S3Response* fake, int*) {
    if (r.method != "PUT") return false;
    fake->status = 503;
    fake->body = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
    return true;
  };
  Status st = fs_->WriteAtomic(P("x"), "nothing");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("HTTP 503 (SlowDown"), std::string::npos) << st.ToString();
  Status cond = fs_->PutIfAbsent(P("x"), "nothing");
  EXPECT_FALSE(cond.ok());
  EXPECT_FALSE(IsAlreadyExists(cond)) << cond.ToString();
  EXPECT_FALSE(*fs_->Exists(P("x")));
}

TEST_F(S3FaultTest, TruncatedBodiesAreFetchedAgain) {
  std::string data(100000, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>('a' + i % 26);
  ASSERT_TRUE(fs_->WriteAtomic(P("data"), data).ok());
  std::atomic<int> gets{0};
  faults_->after = [&](const S3Request& r, S3Response* resp, int*) {
    if ((r.kind == S3RequestKind::kGet || r.kind == S3RequestKind::kGetRange) && gets.fetch_add(1) % 2 == 0) {
      resp->body.resize(resp->body.size() / 2);  // every other GET loses its second half
    }
  };
  EXPECT_EQ(*fs_->ReadAll(P("data")), data);
  auto file = fs_->OpenForRead(P("data"));
  ASSERT_TRUE(file.ok());
  std::string part(5000, '\0');
  ASSERT_TRUE((*file)->ReadAt(90000, 5000, reinterpret_cast<uint8_t*>(part.data())).ok());
  EXPECT_EQ(part, data.substr(90000, 5000));
  // Always truncated: a named error, never short data.
  faults_->after = [&](const S3Request& r, S3Response* resp, int*) {
    if (r.kind == S3RequestKind::kGet || r.kind == S3RequestKind::kGetRange) resp->body.resize(resp->body.size() / 2);
  };
  auto all = fs_->ReadAll(P("data"));
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.status().message().find("truncated"), std::string::npos) << all.status().ToString();
  Status ranged = (*file)->ReadAt(0, 5000, reinterpret_cast<uint8_t*>(part.data()));
  EXPECT_NE(ranged.message().find("truncated"), std::string::npos) << ranged.ToString();
}

TEST_F(S3FaultTest, FailedMultipartUploadIsAbortedAndLeavesNoObject) {
  std::atomic<int> parts{0};
  faults_->before = [&](const S3Request& r, S3Response* fake, int*) {
    bool is_part = r.method == "PUT" && !r.query.empty() && r.query[0].first == "partNumber";
    if (!is_part || parts.fetch_add(1) < 1) return false;
    fake->status = 400;  // the second part is refused for good
    fake->body = "<Error><Code>InvalidPart</Code></Error>";
    return true;
  };
  auto f = fs_->OpenForWrite(P("big"));
  ASSERT_TRUE(f.ok());
  std::string mib(1 << 20, 'x');
  Status st;
  for (int i = 0; i < 20 && st.ok(); ++i) st = (*f)->Append(mib);
  if (st.ok()) st = (*f)->Close();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("InvalidPart"), std::string::npos) << st.ToString();
  faults_->before = nullptr;
  EXPECT_FALSE(*fs_->Exists(P("big")));
}

}  // namespace
}  // namespace shoal::io
