// A GoogleTest fixture for the tests that run many `shoal` shells against one warehouse
// (src/cli/history_e2e_test.cc, src/cli/soak_e2e_test.cc): the binary, a local warehouse
// directory, or one on the local S3 server (UseS3), removed afterwards.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <memory>
#include <string>

#include "io/file_system.h"
#include "io/s3_file_system.h"
#include "support/s3_test_server.h"
#include "support/testdata.h"

namespace shoal::testing {

class ShellWarehouseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    binary_ = BinaryDir() + "/shoal";
    if (!std::filesystem::exists(binary_))
      FAIL() << "shoal binary not found at " << binary_ << " (build target shoal)";
    warehouse_ = dir_.Join("wh");
    std::filesystem::create_directories(warehouse_);
    signal(SIGPIPE, SIG_IGN);
  }
  void TearDown() override {
    if (on_s3_) (void)fs_->DeleteRecursive(warehouse_);
  }
  // The warehouse on the local S3 server instead, under `name` (the shells find it through AWS_*).
  void UseS3(const S3TestServer& server, const std::string& name) {
    server.ExportToEnvironment();
    warehouse_ = server.UniquePath(name);
    fs_ = std::make_shared<io::S3FileSystem>(server.Options());
    on_s3_ = true;
  }

  TempDir dir_;
  std::string binary_;
  std::string warehouse_;
  std::shared_ptr<io::FileSystem> fs_ = io::LocalFileSystem();
  bool on_s3_ = false;
};

}  // namespace shoal::testing
