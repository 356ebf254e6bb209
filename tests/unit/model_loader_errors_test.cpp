// SPDX-License-Identifier: BSD-3-Clause
// Every error of the model loader (model JSON, model_dict, bootstrap
// collections, score transforms) and of the libsvm text parser: the exact
// one-line message, naming the model file (and sub-model) and the problem.
// scripts/error-audit.py checks that each message of src/ has such a test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "model/model.hpp"

namespace vmafx {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* kSvm = "svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n";

// A valid one-feature model; tests break one thing at a time.
json base_model(const std::string& svm = kSvm) {
  return {{"model_dict",
           {{"model_type", "LIBSVMNUSVR"},
            {"norm_type", "linear_rescale"},
            {"feature_names", {"VMAF_integer_feature_adm2_score"}},
            {"slopes", {0.5, 2.0}},
            {"intercepts", {0.0, 1.0}},
            {"model", svm}}}};
}

std::string error_of(const std::string& text, const ModelOptions& o = {}) {
  try {
    Model::from_json(text, "m.json", o);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}
std::string error_of(const json& j) { return error_of(j.dump(), ModelOptions{}); }

json with(json j, const std::string& key, const json& v) {
  j["model_dict"][key] = v;
  return j;
}
json without(json j, const std::string& key) {
  j["model_dict"].erase(key);
  return j;
}

TEST(ModelLoaderErrors, Structure) {
  EXPECT_EQ(error_of(std::string("\"text\"")), "m.json: the top level is a string, not an object");
  EXPECT_EQ(error_of(json{{"0", 5}, {"1", base_model()}}), "m.json: model \"0\": is a number, not an object");
  EXPECT_EQ(error_of(json{{"0", json::object()}}), "m.json: model \"0\": missing \"model_dict\"");
  EXPECT_EQ(error_of(json{{"model_dict", json::array()}}), "m.json: \"model_dict\" is an array, expected an object");
  EXPECT_EQ(error_of(without(base_model(), "intercepts")),
            "m.json: model_dict: missing \"intercepts\" (needed by norm_type linear_rescale)");
  EXPECT_EQ(error_of(with(base_model(), "model_type", 3)),
            "m.json: model_dict: \"model_type\" is a number, expected a string");
}

TEST(ModelLoaderErrors, QuotedTextStaysOneLine) {
  // Found by fuzz_model: a model's strings were quoted raw, newlines and all.
  EXPECT_EQ(error_of(with(base_model(), "norm_type", "no\nne")), "m.json: model_dict: unknown norm_type \"no\\x0ane\"");
  EXPECT_EQ(error_of(with(base_model(), "feature_names", {"VMAF\x01\r\n"})),
            "m.json: model_dict: feature \"VMAF\\x01\\x0d\\x0a\" is not provided by any feature extractor");
}

TEST(ModelLoaderErrors, Bootstrap) {
  json boot = base_model(), residue = base_model();
  boot["model_dict"]["model_type"] = "BOOTSTRAP_LIBSVMNUSVR";
  residue["model_dict"]["model_type"] = "RESIDUEBOOTSTRAP_LIBSVMNUSVR";
  EXPECT_EQ(error_of(json{{"0", base_model()}, {"1", boot}, {"2", residue}}),
            "m.json: bootstrap collection sub-models have different model_type");
  EXPECT_EQ(error_of(json{{"0", base_model()}, {"1", boot}, {"2", without(boot, "model")}}),
            "m.json: model \"2\": model_dict: missing \"model\"");
}

TEST(ModelLoaderErrors, Features) {
  EXPECT_EQ(error_of(with(base_model(), "feature_names", {"VMAF_integer_feature_adm2_score", 7})),
            "m.json: model_dict: \"feature_names\" holds a number");
  json many = json::array();
  for (int i = 0; i < 65; ++i) many.push_back("VMAF_integer_feature_adm2_score");
  EXPECT_EQ(error_of(with(base_model(), "feature_names", many)), "m.json: model_dict: more than 64 features");
  EXPECT_EQ(error_of(with(base_model(), "slopes", {0.5, "2"})), "m.json: model_dict: \"slopes\" holds a string");
  EXPECT_EQ(error_of(with(base_model(), "intercepts", {0.5, 1, 2})),
            "m.json: model_dict: \"intercepts\" has 3 entries, expected 2 (the model's, then one per feature)");
}

TEST(ModelLoaderErrors, FeatureOptions) {
  EXPECT_EQ(error_of(with(base_model(), "feature_opts_dicts", {{{"adm_enhn_gain_limit", 1.0}}, json::object()})),
            "m.json: model_dict: \"feature_opts_dicts\" has 2 entries but there are 1 features");
  EXPECT_EQ(error_of(with(base_model(), "feature_opts_dicts", {5})),
            "m.json: model_dict: \"feature_opts_dicts\" entry 0 is a number, expected an object");
  // The same option twice: fine with the same value, an error otherwise.
  const std::string twice = R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none",
      "feature_names": ["VMAF_integer_feature_adm2_score"], "model": "svm_type nu_svr\nkernel_type linear\n)"
                            R"(nr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n",
      "feature_opts_dicts": [{"adm_enhn_gain_limit": 1.0, "adm_enhn_gain_limit": )";
  EXPECT_EQ(error_of(twice + "1}]}}"), "no error");
  EXPECT_EQ(error_of(twice + "1.2}]}}"),
            "m.json: model_dict: \"feature_opts_dicts\" entry 0: option \"adm_enhn_gain_limit\" given twice with "
            "different values");
}

TEST(ModelLoaderErrors, ClipAndChroma) {
  EXPECT_EQ(error_of(with(base_model(), "score_clip", {0.0})), "m.json: model_dict: \"score_clip\" must be [min, max]");
  EXPECT_EQ(error_of(with(base_model(), "score_clip", {0.0, "100"})),
            "m.json: model_dict: \"score_clip\" must be [min, max]");
  ModelOptions no_clip;
  no_clip.disable_clip = true;  // disable_clip ignores the clip, malformed or not
  EXPECT_EQ(error_of(with(base_model(), "score_clip", {0.0}).dump(), no_clip), "no error");
  EXPECT_EQ(error_of(with(base_model(), "chroma_correction_parameter", 0.0)),
            "m.json: model_dict: \"chroma_correction_parameter\" is 0 (libvmaf writes no score for such a model)");
  EXPECT_EQ(error_of(with(base_model(), "chroma_correction_parameter", 0.5)),
            "m.json: model_dict: chroma_correction_parameter needs exactly one feature named *adm3*, found 0");
}

TEST(ModelLoaderErrors, Transform) {
  auto transform = [](const json& t) { return error_of(with(base_model(), "score_transform", t)); };
  EXPECT_EQ(transform({{"enabled", true}, {"p1", "x"}}),
            "m.json: model_dict: score_transform: \"p1\" is a string, expected a number or null");
  json knots = json::array();
  for (int i = 0; i < 11; ++i) knots.push_back({i, i});
  EXPECT_EQ(transform({{"knots", knots}}), "m.json: model_dict: score_transform: more than 10 knots");
  EXPECT_EQ(transform({{"knots", {{1, 2, 3}}}}), "m.json: model_dict: score_transform: a knot must be [x, y]");
  EXPECT_EQ(transform({{"knots", {{1, "2"}}}}), "m.json: model_dict: score_transform: a knot must be [x, y]");
  EXPECT_EQ(transform({{"knots", 5}}),
            "m.json: model_dict: score_transform: \"knots\" is a number, expected an array or null");
  EXPECT_EQ(transform({{"out_gte_in", 1}}),
            "m.json: model_dict: score_transform: \"out_gte_in\" is a number, expected \"true\" or \"false\"");
}

std::string file_error(const std::string& path) {
  try {
    Model::from_file(path, {});
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ModelLoaderErrors, Files) {
  const fs::path dir = fs::temp_directory_path() / "vmafx_model_loader_errors";
  fs::create_directories(dir);
  const fs::path pkl = dir / "model.pkl";
  std::ofstream(pkl) << "(dp0\nS'model_dict'\n";
  const std::string e = file_error(pkl.string());
  EXPECT_EQ(e.rfind(pkl.string() + ": invalid JSON: ", 0), 0u) << e;
  EXPECT_TRUE(e.ends_with(" (pkl model files are not supported, use json)")) << e;
  fs::remove_all(dir);
  // A read error is reported as one (not as a truncated, invalid model):
  // reading /proc/self/mem at offset 0 fails with EIO.
  EXPECT_EQ(file_error("/proc/self/mem"), "/proc/self/mem: cannot read model file: Input/output error");
  // A file that never ends is not read into memory without bound.
  EXPECT_EQ(file_error("/dev/zero"), "/dev/zero: cannot read model file: larger than 64 MiB");
}

// ---- libsvm text ------------------------------------------------------------

std::string svm_error(const std::string& svm) { return error_of(base_model(svm)); }

TEST(SvmParserErrors, Header) {
  EXPECT_EQ(svm_error("svm_type ranking\n"), "m.json: libsvm model: unknown svm_type \"ranking\"");
  EXPECT_EQ(svm_error("svm_type nu_svr\nkernel_type rbf\ngamma x\n"),
            "m.json: libsvm model: cannot read gamma (\"x\")");
  EXPECT_EQ(svm_error("svm_type nu_svr\nkernel_type poly\ndegree 2.5\n"),
            "m.json: libsvm model: unknown kernel_type \"poly\"");
  EXPECT_EQ(svm_error("svm_type nu_svr\nkernel_type polynomial\ndegree 2.5\n"),
            "m.json: libsvm model: cannot read degree (\"2.5\")");
  EXPECT_EQ(svm_error("svm_type nu_svr\nnr_class 3\n"),
            "m.json: libsvm model: nr_class is 3, a regression model has 2");
  EXPECT_EQ(svm_error("svm_type nu_svr\nnr_class 2\ntotal_sv -1\n"), "m.json: libsvm model: negative total_sv");
  EXPECT_EQ(svm_error("svm_type nu_svr\nrho 0\n"), "m.json: libsvm model: rho before nr_class");
  EXPECT_EQ(svm_error("svm_type nu_svr\nlabel 1 -1\n"), "m.json: libsvm model: label before nr_class");
  EXPECT_EQ(svm_error("kernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n"),
            "m.json: libsvm model: no svm_type");
  EXPECT_EQ(svm_error("svm_type nu_svr\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n"),
            "m.json: libsvm model: no kernel_type");
  EXPECT_EQ(svm_error("svm_type nu_svr\nkernel_type linear\ntotal_sv 1\nSV\n1 1:1\n"),
            "m.json: libsvm model: no nr_class");
  EXPECT_EQ(svm_error("svm_type nu_svr\nkernel_type linear\nnr_class 2\nrho 0\nSV\n1 1:1\n"),
            "m.json: libsvm model: no total_sv");
  EXPECT_EQ(svm_error("svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nSV\n1 1:1\n"),
            "m.json: libsvm model: no rho");
}

TEST(SvmParserErrors, SupportVectors) {
  const std::string head = "svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV";
  EXPECT_EQ(svm_error(head + " 7\n1 1:1\n"), "m.json: libsvm model: unexpected text after \"SV\"");
  EXPECT_EQ(svm_error(head + "\nx 1:1\n"),
            "m.json: libsvm model: support vector 1: cannot read the coefficient (\"x\")");
  EXPECT_EQ(svm_error(head + "\n1 1:1 1:2\n"),
            "m.json: libsvm model: support vector 1: feature indices must be >= 1 and ascending");
  EXPECT_EQ(svm_error(head + "\n1 0:1\n"),
            "m.json: libsvm model: support vector 1: feature indices must be >= 1 and ascending");
  // In a collection, the sub-model is named.
  json boot = base_model(head + "\nx\n");
  boot["model_dict"]["model_type"] = "BOOTSTRAP_LIBSVMNUSVR";
  EXPECT_EQ(error_of(json{{"0", base_model()}, {"1", boot}}),
            "m.json: model \"1\": libsvm model: support vector 1: cannot read the coefficient (\"x\")");
}

}  // namespace
}  // namespace vmafx
