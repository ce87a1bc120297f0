#pragma once

// For the Glue catalog tests: VersionCheckingGlue, a proxy in front of moto that gives UpdateTable
// the VersionId check real Glue has and moto lacks (moto applies an UpdateTable whatever
// VersionId it carries: GlueCatalogTest.MotoAppliesAStaleVersionId).

#include <fmt/format.h>
#include <httplib.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "floe/util/json.h"

namespace floe::catalog::gluetest {

// Forwards Glue requests to moto; an UpdateTable whose VersionId is not the table's current one
// is answered with ConcurrentModificationException, as Glue does. Updates are checked and
// forwarded one at a time, so the check and the update are atomic.
class VersionCheckingGlue {
 public:
  explicit VersionCheckingGlue(std::string upstream) : upstream_(std::move(upstream)) {
    server_.Post("/",
                 [this](const httplib::Request& req, httplib::Response& res) { Handle(req, res); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~VersionCheckingGlue() {
    server_.stop();
    thread_.join();
  }

  std::string endpoint() const { return fmt::format("http://127.0.0.1:{}", port_); }

  // Runs hook when the next UpdateTable arrives, before it is checked: another writer's commit
  // lands between the caller's last read and its update.
  void BeforeNextUpdate(std::function<void()> hook) {
    std::lock_guard lock(hook_mu_);
    hook_ = std::move(hook);
  }

  int refused_updates() const { return refused_; }

 private:
  // moto tells Glue from S3 by the Authorization header's scope: it goes along.
  httplib::Result Forward(const httplib::Request& req, const std::string& target,
                          const std::string& body) {
    httplib::Client client(upstream_);
    httplib::Headers headers{{"X-Amz-Target", target}};
    for (const char* name : {"Authorization", "X-Amz-Date"}) {
      if (req.has_header(name)) headers.emplace(name, req.get_header_value(name));
    }
    return client.Post("/", headers, body, "application/x-amz-json-1.1");
  }

  void Relay(const httplib::Result& result, httplib::Response& res) {
    if (!result) {
      res.status = 502;
      return;
    }
    res.status = result->status;
    res.set_content(result->body, "application/x-amz-json-1.1");
  }

  void Handle(const httplib::Request& req, httplib::Response& res) {
    std::string target = req.get_header_value("X-Amz-Target");
    if (target != "AWSGlue.UpdateTable") return Relay(Forward(req, target, req.body), res);
    std::function<void()> hook;
    {
      std::lock_guard lock(hook_mu_);
      hook = std::exchange(hook_, nullptr);
    }
    if (hook) hook();
    std::lock_guard lock(update_mu_);
    auto request = Json::Parse(req.body);
    if (!request) {
      res.status = 400;
      return;
    }
    const Json* input = request->Find("TableInput");
    Json get = Json::MakeObject();
    get.Set("DatabaseName", request->GetString("DatabaseName").value_or(""));
    get.Set("Name", input != nullptr ? input->GetString("Name").value_or("") : "");
    auto current = Forward(req, "AWSGlue.GetTable", get.Dump());
    auto current_json = current ? Json::Parse(current->body) : Result<Json>(Json());
    std::string current_version;
    if (current_json && current_json->is_object()) {
      if (const Json* table = current_json->Find("Table")) {
        current_version = table->GetString("VersionId").value_or("");
      }
    }
    std::string sent = request->GetString("VersionId").value_or("");
    if (!sent.empty() && sent != current_version) {
      ++refused_;
      res.status = 400;
      Json error = Json::MakeObject();
      error.Set("__type", "ConcurrentModificationException");
      error.Set("message",
                fmt::format("version {} is not the current version {}", sent, current_version));
      res.set_content(error.Dump(), "application/x-amz-json-1.1");
      return;
    }
    Relay(Forward(req, target, req.body), res);
  }

  std::string upstream_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex hook_mu_;
  std::function<void()> hook_;
  std::mutex update_mu_;
  std::atomic<int> refused_{0};
};

}  // namespace floe::catalog::gluetest
