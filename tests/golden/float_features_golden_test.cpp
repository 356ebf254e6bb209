// SPDX-License-Identifier: BSD-3-Clause
// libvmaf 3.2.0's float features vs our float_vif, float_adm, float_motion,
// float_psnr, float_ansnr and float_moment, compared with == on every frame:
//  * the golden runs: `features` (vif_scale0..3, adm2, aim, adm3,
//    adm_scale0..3, motion2, motion, motion3), `extras` (float_psnr,
//    float_ansnr, float_anpsnr, float_moment_*) for every pair, and `egl1`
//    (the *_egl_1 names of astro176__unsharp);
//  * option variants the golden runs lack, against values from libvmaf 3.2.0
//    (the same source, commit f85a8536, built with meson --buildtype release,
//    -Denable_float=true, asm off, gcc 12.2, i.e. its plain C path) run on the
//    golden clips through its API with the same options;
//  * threads: the same output, in the same order, with worker threads.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "support/golden.hpp"

namespace vmafx::test {
namespace {

// Metric names of a golden file's first frame in the file's order (libvmaf's
// output order), filtered by a regular expression. (Read here with an ordered
// parser: GoldenRun::names comes out sorted at present.)
std::vector<std::string> names_in_file_order(const std::string& path, const std::string& regex) {
  std::ifstream in(path);
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
  const std::regex re(regex);
  std::vector<std::string> out;
  for (const auto& [k, v] : j.at("frames").at(0).at("metrics").items())
    if (std::regex_match(k, re)) out.push_back(k);
  return out;
}

const std::vector<FeatureRequest> kMain = {{"float_vif", {}}, {"float_adm", {}}, {"float_motion", {}}};
const std::vector<FeatureRequest> kSmall = {{"float_psnr", {}}, {"float_ansnr", {}}, {"float_moment", {}}};

const std::string kMainNames = "vif_scale[0-3]|adm2|aim|adm3|adm_scale[0-3]|motion|motion2|motion3";
const std::string kSmallNames = "float_psnr|float_ansnr|float_anpsnr|float_moment_(ref|dis)(1st|2nd)";

class FloatFeaturesGolden : public ::testing::TestWithParam<std::string> {};

// vif, adm and motion of the `features` run: all 14 scores, every frame, and
// the names in libvmaf's order (motion2, motion, motion3 at the end).
TEST_P(FloatFeaturesGolden, FeaturesRunEqual) {
  const GoldenPair& pair = golden_pair(GetParam());
  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "features"));
  const std::vector<std::string> names = golden_names(want, kMainNames);
  ASSERT_EQ(names.size(), 14u);
  const FeatureCollector got = run_features(pair, kMain);
  EXPECT_TRUE(frames_equal(got, want, names));
  std::vector<std::string> order;
  for (const auto& s : got.all()) order.push_back(s.name);
  EXPECT_EQ(order, names_in_file_order(want.path, kMainNames));
}

// float_psnr, float_ansnr, float_anpsnr and the four moments of the `extras` run.
TEST_P(FloatFeaturesGolden, ExtrasRunEqual) {
  const GoldenPair& pair = golden_pair(GetParam());
  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "extras"));
  const std::vector<std::string> names = golden_names(want, kSmallNames);
  ASSERT_EQ(names.size(), 7u);
  const FeatureCollector got = run_features(pair, kSmall);
  EXPECT_TRUE(frames_equal(got, want, names));
  std::vector<std::string> order;
  for (const auto& s : got.all()) order.push_back(s.name);
  EXPECT_EQ(order, names_in_file_order(want.path, kSmallNames));
}

// Two worker threads: same names, values and order as the single-threaded run.
TEST_P(FloatFeaturesGolden, ThreadsIdentical) {
  const GoldenPair& pair = golden_pair(GetParam());
  std::vector<FeatureRequest> all = kMain;
  all.insert(all.end(), kSmall.begin(), kSmall.end());
  const FeatureCollector a = run_features(pair, all);
  const FeatureCollector b = run_features(pair, all, EngineOptions{.threads = 2});
  ASSERT_EQ(a.all().size(), b.all().size());
  for (std::size_t i = 0; i < a.all().size(); ++i) {
    EXPECT_EQ(a.all()[i].name, b.all()[i].name);
    EXPECT_EQ(a.all()[i].value, b.all()[i].value) << a.all()[i].name;
    EXPECT_EQ(a.all()[i].written, b.all()[i].written) << a.all()[i].name;
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, FloatFeaturesGolden, ::testing::ValuesIn(pair_names()), param_name);

// The enhancement gain limit at 1.0: vif_scale*_egl_1, adm2_egl_1, aim_egl_1,
// adm3_egl_1, adm_scale*_egl_1.
TEST(FloatFeaturesGoldenEgl, GainLimitOne) {
  const GoldenPair& pair = golden_pair("astro176__unsharp");
  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "egl1"));
  const std::vector<std::string> names = golden_names(want, "(vif_scale[0-3]|adm2|aim|adm3|adm_scale[0-3])_egl_1");
  ASSERT_EQ(names.size(), 11u);
  const FeatureCollector got = run_features(
      pair, {{"float_vif", {{"vif_enhn_gain_limit", "1.0"}}}, {"float_adm", {{"adm_enhn_gain_limit", "1.0"}}}});
  EXPECT_TRUE(frames_equal(got, want, names));
  // The limit matters on this sharpened clip: the default differs.
  const GoldenRun plain = load_golden(golden_oracle_path(pair.name, "features"));
  EXPECT_NE(want.frames.at("adm2_egl_1")[0], plain.frames.at("adm2")[0]);
}

// ---- Option variants: libvmaf 3.2.0 plain C values ----------------------

struct Variant {
  const char* pair;
  const char* extractor;
  std::map<std::string, std::string> opts;
  std::vector<std::pair<std::string, std::vector<double>>> values;  // name -> every frame
};

// Generated by running libvmaf's API (vmaf_use_feature with these options,
// vmaf_read_pictures, vmaf_feature_score_at_index, %.17g) on the golden clips.
// Recipe: tests/data/golden/make/oracle-float-variants.sh (the same options
// through the %.17g CLI, --cpumask 255), checked by make/check_recorded.py.
const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"astro176__unsharp",
       "float_vif",
       {{"vif_kernelscale", "0.5"}},
       {{"vif_scale0_ks_0.5", {0.53695425405078978, 0.53582925119651492, 0.53265917038411936, 0.53042070781668749}},
        {"vif_scale1_ks_0.5", {0.71281328311212888, 0.71273902278445378, 0.70864546359945479, 0.70411003756542845}},
        {"vif_scale2_ks_0.5", {0.83319825974585016, 0.83728439141769295, 0.83505082662040542, 0.82644704861055729}},
        {"vif_scale3_ks_0.5", {0.92251458568921574, 0.92086173397775595, 0.92644766309946314, 0.91878976429840664}}}},
      {"mandel240p10__x265_crf30",
       "float_vif",
       {{"vif_kernelscale", "1.66667"}},
       {{"vif_scale0_ks_1.66667", {0.5754175643567534, 0.50064298331270818, 0.52051706658193331}},
        {"vif_scale1_ks_1.66667", {0.9506400538127423, 0.89478563066947692, 0.90580597654091721}},
        {"vif_scale2_ks_1.66667", {0.97774133558334309, 0.94354363143371389, 0.94658268020926173}},
        {"vif_scale3_ks_1.66667", {0.98977946700659991, 0.96803665749971246, 0.97351959959460987}}}},
      {"astro176__unsharp",
       "float_vif",
       {{"vif_kernelscale", "3.71134"}},
       {{"vif_scale0_ks_3.71134", {0.43190330984422448, 0.43087755449834819, 0.43078118638642249, 0.4280540386450401}},
        {"vif_scale1_ks_3.71134", {0.98777335316237558, 0.9888263377694072, 0.98692577525546232, 0.99009118588129563}},
        {"vif_scale2_ks_3.71134", {0.99358223725253769, 0.99430511239873554, 0.99282731236131683, 0.99524590150939241}},
        {"vif_scale3_ks_3.71134",
         {0.9962689690036225, 0.99625284122894475, 0.99543210727949594, 0.99692260241441466}}}},
      {"astro176__unsharp",
       "float_vif",
       {{"vif_prescale", "0.5"}, {"vif_prescale_method", "bilinear"}},
       {{"vif_scale0_ps_0.5_pm_bilinear",
         {0.53386672737535734, 0.52959340825638546, 0.53077792015462943, 0.52962434355608901}},
        {"vif_scale1_ps_0.5_pm_bilinear",
         {0.9594055889651173, 0.95861612870435409, 0.957743811529714, 0.95999454025692288}},
        {"vif_scale2_ps_0.5_pm_bilinear",
         {0.98692433403187241, 0.98697663913400546, 0.98541233909511483, 0.98745194312977702}},
        {"vif_scale3_ps_0.5_pm_bilinear",
         {0.99381935010242917, 0.99382925308679659, 0.99131770043904199, 0.99318162375767682}}}},
      {"mandel240p10__x265_crf30",
       "float_vif",
       {{"vif_prescale", "1.5"}, {"vif_prescale_method", "bicubic"}},
       {{"vif_scale0_ps_1.5_pm_bicubic", {0.53683161301567051, 0.49245183536517312, 0.50505537573514425}},
        {"vif_scale1_ps_1.5_pm_bicubic", {0.79481321442688246, 0.70575694006942657, 0.74318741785511722}},
        {"vif_scale2_ps_1.5_pm_bicubic", {0.87553364588027383, 0.79533147111032232, 0.82884694170503437}},
        {"vif_scale3_ps_1.5_pm_bicubic", {0.91980728805811784, 0.85749882014043499, 0.87906230735238755}}}},
      {"astro176__unsharp",
       "float_vif",
       {{"vif_prescale", "2"}, {"vif_prescale_method", "lanczos4"}},
       {{"vif_scale0_ps_2_pm_lanczos4",
         {0.54779534422581022, 0.54624665760300328, 0.54303675399194129, 0.54106748681150474}},
        {"vif_scale1_ps_2_pm_lanczos4",
         {0.69277578107694882, 0.6916668651795933, 0.68770276728900426, 0.68490774420475142}},
        {"vif_scale2_ps_2_pm_lanczos4",
         {0.79426531184659521, 0.79186650322308605, 0.79077771886198056, 0.78677246500023645}},
        {"vif_scale3_ps_2_pm_lanczos4",
         {0.8701426922003852, 0.87260209827435686, 0.87342656517911033, 0.86496960640418807}}}},
      {"gradnoise240p444p12__x265_crf28",
       "float_vif",
       {{"vif_prescale", "0.75"}},
       {{"vif_scale0_ps_0.75", {0.39768095191615449, 0.39241736401423544, 0.38402959263044789}},
        {"vif_scale1_ps_0.75", {0.96558999641744825, 0.95091263831316231, 0.94819835570259192}},
        {"vif_scale2_ps_0.75", {0.98126488956449465, 0.96823895552944539, 0.97042648885064575}},
        {"vif_scale3_ps_0.75", {0.98604807275973505, 0.97480297617951894, 0.98119236550014299}}}},
      {"astro176__unsharp",
       "float_vif",
       {{"vif_skip_scale0", "true"}, {"debug", "true"}},
       {{"vif_scale0_ssclz", {0, 0, 0, 0}},
        {"vif_scale1_ssclz", {0.83754191381558896, 0.83499825329236366, 0.83518593415105158, 0.83391116335891935}},
        {"vif_scale2_ssclz", {0.92971514837740399, 0.92978071675027896, 0.92793085304187994, 0.92770042445982825}},
        {"vif_scale3_ssclz", {0.96837262856379613, 0.96968636512126438, 0.96739699076998975, 0.97109795279302147}},
        {"vif_ssclz", {0.86080479091551609, 0.85902374777090462, 0.85873064357170825, 0.8579315542213003}},
        {"vif_num_ssclz", {46406.875244140625, 46766.302490234375, 47208.34814453125, 47463.692138671875}},
        {"vif_den_ssclz", {53911.03271484375, 54441.221923828125, 54974.5703125, 55323.40185546875}},
        {"vif_num_scale0_ssclz", {0, 0, 0, 0}},
        {"vif_den_scale0_ssclz", {-1, -1, -1, -1}},
        {"vif_num_scale1_ssclz", {34636.62109375, 34835.38671875, 35178.19140625, 35329.65625}},
        {"vif_den_scale1_ssclz", {41355.08984375, 41719.11328125, 42120.19140625, 42366.2109375}},
        {"vif_num_scale2_ssclz", {9345.310546875, 9448.8583984375, 9525.46484375, 9591.0380859375}},
        {"vif_den_scale2_ssclz", {10051.7998046875, 10162.458984375, 10265.2744140625, 10338.5078125}},
        {"vif_num_scale3_ssclz", {2424.943603515625, 2482.057373046875, 2504.69189453125, 2542.997802734375}},
        {"vif_den_scale3_ssclz", {2504.14306640625, 2559.649658203125, 2589.1044921875, 2618.68310546875}}}},
      {"mandel240p10__x265_crf30",
       "float_vif",
       {{"vif_sigma_nsq", "0.5"}, {"vif_scale1_min_val", "0.95"}, {"vif_enhn_gain_limit", "1.5"}},
       {{"vif_scale0_egl_1.5_s1miv_0.95_snsq_0.5", {0.4611032010436128, 0.39717451602964715, 0.41100550685882042}},
        {"vif_scale1_egl_1.5_s1miv_0.95_snsq_0.5", {0.94999999999999996, 0.94999999999999996, 0.94999999999999996}},
        {"vif_scale2_egl_1.5_s1miv_0.95_snsq_0.5", {0.85927393212832393, 0.76594850142109061, 0.79500115963314433}},
        {"vif_scale3_egl_1.5_s1miv_0.95_snsq_0.5", {0.91641239923929962, 0.83278492224860245, 0.85062152677463421}}}},
      {"astro176__unsharp",
       "float_adm",
       {{"adm_csf_mode", "1"}, {"adm_csf_scale", "2"}, {"adm_csf_diag_scale", "0.5"}},
       {{"adm2_scfd_0.5_csf_1_scf_2", {1.0345827541773192, 1.037376168379585, 1.0321251306040062, 1.0414581591920438}},
        {"aim_scfd_0.5_csf_1_scf_2",
         {0.032231934956799983, 0.025908500424499863, 0.03047410209746047, 0.033636521501869104}},
        {"adm3_scfd_0.5_csf_1_scf_2", {1.0011754096102596, 1.0057338339775426, 1.0008255142532729, 1.0039108188450874}},
        {"adm_scale0_scfd_0.5_csf_1_scf_2",
         {1.438029459904782, 1.4271369647798047, 1.4095118679543102, 1.4420394649000796}},
        {"adm_scale1_scfd_0.5_csf_1_scf_2",
         {1.1088498386365546, 1.1435970297892353, 1.1145432903553405, 1.1715391966576707}},
        {"adm_scale2_scfd_0.5_csf_1_scf_2",
         {1.0521473297688479, 1.0473398697616205, 1.062097724905384, 1.0604058341196945}},
        {"adm_scale3_scfd_0.5_csf_1_scf_2",
         {1.0192928259415215, 1.0218121087564711, 1.0123027288404429, 1.0212875798552972}}}},
      {"mandel240p10__x265_crf30",
       "float_adm",
       {{"adm_csf_mode", "2"}, {"adm_norm_view_dist", "6"}, {"adm_ref_display_height", "2160"}},
       {{"adm2_csf_2_nvd_6_rdf_2160", {0.96655914319096592, 0.9524167359107738, 0.95340818315396547}},
        {"aim_csf_2_nvd_6_rdf_2160", {0.010912055875353115, 0.015699252691576654, 0.019352833176108367}},
        {"adm3_csf_2_nvd_6_rdf_2160", {0.97782354365780644, 0.96835874160959856, 0.96702767498892861}},
        {"adm_scale0_csf_2_nvd_6_rdf_2160", {1, 1, 1}},
        {"adm_scale1_csf_2_nvd_6_rdf_2160", {0.99997995810102513, 0.99996325689273402, 0.99996928500460525}},
        {"adm_scale2_csf_2_nvd_6_rdf_2160", {0.9724464081471208, 0.96115075001395378, 0.96957204914736783}},
        {"adm_scale3_csf_2_nvd_6_rdf_2160", {0.96254101203141429, 0.94608615160873422, 0.94591821520091524}}}},
      {"astro176__unsharp",
       "float_adm",
       {{"adm_p_norm", "2"}, {"adm_bypass_cm", "1"}},
       {{"adm2_bcm_1_apn_2", {1.0816165410368717, 1.0834451591159957, 1.0804930341744041, 1.0873164947998379}},
        {"aim_bcm_1_apn_2", {0.20644176785375434, 0.20334344813219876, 0.21087900780099397, 0.2133191813144735}},
        {"adm3_bcm_1_apn_2", {0.93758738659155871, 0.94005085549189848, 0.934807013186705, 0.93699865674268223}},
        {"adm_scale0_bcm_1_apn_2", {1.2114255217876857, 1.2162374717447861, 1.2197147770743777, 1.2182254202003049}},
        {"adm_scale1_bcm_1_apn_2", {1.1448292005021443, 1.1491443343863177, 1.1360447546590877, 1.1657761756447251}},
        {"adm_scale2_bcm_1_apn_2", {1.0783002496877221, 1.0725245225329967, 1.07695714499878, 1.0748803786165577}},
        {"adm_scale3_bcm_1_apn_2", {1.0231952320551456, 1.028514642344768, 1.0222433655178085, 1.0276155211010118}}}},
      {"gradnoise240p444p12__x265_crf28",
       "float_adm",
       {{"adm_p_norm", "4.5"}, {"adm_enhn_gain_limit", "1.2"}},
       {{"adm2_egl_1.2_apn_4.5", {0.91577708735262453, 0.89453830357127861, 0.90635551356503086}},
        {"aim_egl_1.2_apn_4.5", {0.043585748053858397, 0.048182485677843605, 0.06376883424733723}},
        {"adm3_egl_1.2_apn_4.5", {0.93609566964938307, 0.92317790894671758, 0.92129333965884674}},
        {"adm_scale0_egl_1.2_apn_4.5", {0.93132230824295203, 0.92999734470757589, 0.9329797396303352}},
        {"adm_scale1_egl_1.2_apn_4.5", {0.88436840487206614, 0.88060199346955548, 0.88661834022998931}},
        {"adm_scale2_egl_1.2_apn_4.5", {0.901281050547729, 0.86166868299845434, 0.8706202356349011}},
        {"adm_scale3_egl_1.2_apn_4.5", {0.93313519676533319, 0.89469288274047509, 0.9203660348773065}}}},
      {"astro176__unsharp",
       "float_adm",
       {{"adm_skip_scale0", "true"}, {"adm_skip_aim_scale", "2"}, {"debug", "true"}},
       {{"adm2_sasc_2_ssz", {1.0354542543924485, 1.0404419233670734, 1.0353778490989138, 1.046490448106973}},
        {"aim_sasc_2_ssz", {0.057672225588611299, 0.061123238508963382, 0.060901249121487019, 0.060580354624603601}},
        {"adm3_sasc_2_ssz", {0.98889101440191862, 0.98965934242905496, 0.98723829998871349, 0.99295504674118473}},
        {"adm_scale0_sasc_2_ssz", {0, 0, 0, 0}},
        {"adm_scale1_sasc_2_ssz", {1.0798230417027597, 1.101139979834425, 1.0801179957409544, 1.1220976994504559}},
        {"adm_scale2_sasc_2_ssz", {1.0444457730706778, 1.040413730368855, 1.0552135483922995, 1.0471647309607399}},
        {"adm_scale3_sasc_2_ssz", {1.0162761789746972, 1.0212595625452781, 1.0099501294429336, 1.0218083842568531}},
        {"adm", {1.0354542543924485, 1.0404419233670734, 1.0353778490989138, 1.046490448106973}},
        {"adm_num_sasc_2_ssz", {299.29811859130859, 301.72283935546875, 299.16019821166992, 304.94888305664062}},
        {"adm_den_sasc_2_ssz", {289.05006408701405, 289.99488830576405, 288.9381866456078, 291.40149688730702}},
        {"adm_num_scale0_sasc_2_ssz", {0, 0, 0, 0}},
        {"adm_den_scale0_sasc_2_ssz",
         {1.000000013351432e-10, 1.000000013351432e-10, 1.000000013351432e-10, 1.000000013351432e-10}},
        {"adm_num_scale1_sasc_2_ssz", {51.928092956542969, 52.30029296875, 52.450115203857422, 55.167198181152344}},
        {"adm_den_scale1_sasc_2_ssz", {48.089447021484375, 47.496498107910156, 48.559616088867188, 49.164344787597656}},
        {"adm_num_scale2_sasc_2_ssz", {92.228836059570312, 96.074554443359375, 91.845474243164062, 93.404853820800781}},
        {"adm_den_scale2_sasc_2_ssz", {88.304092407226562, 92.342643737792969, 87.039703369140625, 89.197860717773438}},
        {"adm_num_scale3_sasc_2_ssz", {155.14118957519531, 153.34799194335938, 154.86460876464844, 156.3768310546875}},
        {"adm_den_scale3_sasc_2_ssz", {152.65652465820312, 150.15574645996094, 153.3388671875, 153.03929138183594}}}},
      {"mandel240p10__x265_crf30",
       "float_adm",
       {{"adm_noise_weight", "1"}, {"adm_adm3_apply_hm", "true"}, {"adm_min_val", "0.5"}},
       {{"adm2_aah_min_0.5_nw_1", {0.95732295243368026, 0.93137495649396418, 0.940244344339489}},
        {"aim_aah_min_0.5_nw_1", {0.021066371850894862, 0.037217357370200065, 0.03147174047468116}},
        {"adm3_aah_min_0.5_nw_1", {0.5, 0.5, 0.5}},
        {"adm_scale0_aah_min_0.5_nw_1", {0.9635509299180407, 0.93975858628393394, 0.94539528656533056}},
        {"adm_scale1_aah_min_0.5_nw_1", {0.94161940369012309, 0.90579224706515915, 0.91269043459154175}},
        {"adm_scale2_aah_min_0.5_nw_1", {0.95043133058372042, 0.92585687871517852, 0.9441659835957289}},
        {"adm_scale3_aah_min_0.5_nw_1", {0.96841010524435256, 0.94818931125429484, 0.95298720745167043}}}},
      {"astro176__unsharp",
       "float_adm",
       {{"adm_f1s0", "0.5"}, {"adm_f2s3", "0"}, {"adm_dlm_weight", "0.3"}, {"adm_csf_mode", "7"}},
       {{"adm2_csf_7_dlmw_0.3_f1s0_0.5_f2s3_0",
         {1.2753915851117978, 1.2707561130758016, 1.2644846677689141, 1.285871042486523}},
        {"aim_csf_7_dlmw_0.3_f1s0_0.5_f2s3_0",
         {0.37035428235043438, 0.37855971709886338, 0.36961808882870822, 0.36053435467274264}},
        {"adm3_csf_7_dlmw_0.3_f1s0_0.5_f2s3_0",
         {0.82336947788823522, 0.81623503195353608, 0.82061273815057845, 0.83338726447503697}},
        {"adm_scale0_csf_7_dlmw_0.3_f1s0_0.5_f2s3_0",
         {1.4655512546635545, 1.4524890603679481, 1.4342079609239515, 1.4689959681621141}},
        {"adm_scale1_csf_7_dlmw_0.3_f1s0_0.5_f2s3_0",
         {1.0798230417027597, 1.101139979834425, 1.0801179957409544, 1.1220976994504559}},
        {"adm_scale2_csf_7_dlmw_0.3_f1s0_0.5_f2s3_0",
         {1.0444457730706778, 1.040413730368855, 1.0552135483922995, 1.0471647309607399}},
        {"adm_scale3_csf_7_dlmw_0.3_f1s0_0.5_f2s3_0",
         {1.0237786385105605, 1.0237797726686249, 1.0176304309106123, 1.0222185957172227}}}},
      {"astro176__unsharp",
       "float_motion",
       {{"motion_add_scale1", "true"}, {"motion_filter_size", "3"}},
       {{"motion2_mdc_mfs_3", {0, 34.191532135009766, 34.505844116210938, 34.663475036621094}},
        {"motion_mdc_mfs_3", {0, 34.191532135009766, 34.505844116210938, 34.663475036621094}},
        {"motion3_mdc_mfs_3", {34.191532135009766, 34.191532135009766, 34.505844116210938, 34.663475036621094}}}},
      {"rocket240x177p422p10__x264_crf32",
       "float_motion",
       {{"motion_add_uv", "true"}},
       {{"motion2_mau", {0, 7.7683414220809937, 7.7683414220809937}},
        {"motion_mau", {0, 7.7988364696502686, 7.7683414220809937}},
        {"motion3_mau", {7.7988364696502686, 7.7683414220809937, 7.7683414220809937}}}},
      {"astro176__unsharp",
       "float_motion",
       {{"motion_add_uv", "true"}, {"motion_add_scale1", "true"}},
       {{"motion2_mdc_mau", {0, 34.969284057617188, 35.300753593444824, 35.462491273880005}},
        {"motion_mdc_mau", {0, 34.969284057617188, 35.300753593444824, 35.462491273880005}},
        {"motion3_mdc_mau", {34.969284057617188, 34.969284057617188, 35.300753593444824, 35.462491273880005}}}},
      {"gradnoise240p444p12__x265_crf28",
       "float_motion",
       {{"motion_add_uv", "true"}, {"motion_add_scale1", "true"}, {"motion_filter_size", "1"}},
       {{"motion2_mdc_mau_mfs_1", {0, 16.066483020782471, 16.066483020782471}},
        {"motion_mdc_mau_mfs_1", {0, 16.289890766143799, 16.066483020782471}},
        {"motion3_mdc_mau_mfs_1", {16.289890766143799, 16.066483020782471, 16.066483020782471}}}},
      {"astro176__unsharp",
       "float_motion",
       {{"motion_force_zero", "true"}},
       {{"motion2_force_0", {0, 0, 0, 0}}, {"motion3_force_0", {0, 0, 0, 0}}, {"motion_force_0", {0, 0, 0, 0}}}},
      {"mandel240p10__x265_crf30",
       "float_motion",
       {{"motion_fps_weight", "2"},
        {"motion_blend_factor", "0.5"},
        {"motion_blend_offset", "5"},
        {"motion_max_val", "12"},
        {"debug", "false"}},
       {{"motion2_mbf_0.5_mbo_5_mfw_2_mmxv_12", {0, 12, 12}}, {"motion3_mbf_0.5_mbo_5_mfw_2_mmxv_12", {12, 12, 12}}}},
  };
  return v;
}

class FloatFeaturesVariant : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FloatFeaturesVariant, EqualsLibvmaf) {
  const Variant& v = variants()[GetParam()];
  const GoldenPair& pair = golden_pair(v.pair);
  const FeatureCollector got = run_features(pair, {FeatureRequest{v.extractor, v.opts}});
  std::vector<std::string> order;
  for (const auto& s : got.all()) order.push_back(s.name);
  std::vector<std::string> want_order;
  for (const auto& [name, values] : v.values) {
    want_order.push_back(name);
    const FeatureCollector::Series* s = got.find(name);
    ASSERT_NE(s, nullptr) << name;
    ASSERT_EQ(values.size(), std::size_t(pair.frames)) << name;
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_TRUE(s->has(unsigned(i))) << name << " frame " << i;
      EXPECT_EQ(s->value[i], values[i]) << name << " frame " << i;
    }
  }
  EXPECT_EQ(order, want_order);
}

std::string variant_name(const ::testing::TestParamInfo<std::size_t>& info) {
  const Variant& v = variants()[info.param];
  std::string s = std::string(v.extractor) + "_" + std::to_string(info.param);
  return s;
}

INSTANTIATE_TEST_SUITE_P(Options, FloatFeaturesVariant, ::testing::Range<std::size_t>(0, variants().size()),
                         variant_name);

}  // namespace
}  // namespace vmafx::test
