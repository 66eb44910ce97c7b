/* Convolution descriptors: every implicit rule, the short and canonical
 * printing and their round trips, and the rejection of bad descriptors
 * with a message that names the offending text. */
#include "self_util.h"

#include <string.h>

#include "common/benchdnn.h"
#include "conv/conv.h"

static char err[BENCH_ERR_LEN];

static int parse(const char *text, conv_desc_t *d) {
    err[0] = '\0';
    return conv_desc_parse_try(text, d, err);
}

static int parse_any(const char *text, void *d, char *message) {
    return conv_desc_parse_try(text, d, message);
}

static void print_any(const void *d, int canonical, char *buf, size_t len) {
    conv_desc_print(d, canonical, buf, len);
}

/* Parses `text` and checks its printed short form. */
static int prints_as(const char *text, const char *expected) {
    return desc_prints_as(parse_any, print_any, NULL, sizeof(conv_desc_t), text,
                          0, expected);
}

static int rejected(const char *text, const char *named) {
    return desc_rejected(parse_any, sizeof(conv_desc_t), text, named, 0);
}

static void test_defaults_and_2d(void) {
    conv_desc_t d;
    CHECK(parse("ic3ih5oc4kh3", &d) == 0);
    CHECK(d.g == 1 && d.mb == 2 && !d.has_groups && d.ndims == 4);
    CHECK(d.ic == 3 && d.oc == 4);
    /* Width copies height; the missing depth reads as a unit dim. */
    CHECK(d.in[CONV_H] == 5 && d.in[CONV_W] == 5 && d.in[CONV_D] == 1);
    CHECK(d.ker[CONV_H] == 3 && d.ker[CONV_W] == 3 && d.ker[CONV_D] == 1);
    CHECK(d.out[CONV_H] == 3 && d.out[CONV_W] == 3 && d.out[CONV_D] == 1);
    for (int i = 0; i < CONV_NSPATIAL; i++)
        CHECK(d.str[i] == 1 && d.dil[i] == 0 && d.pad[i] == 0 &&
              d.pad_r[i] == 0);
    CHECK(d.name[0] == '\0');

    CHECK(parse("g4mb7ic8ih5iw9oc12kh1kw3pw1", &d) == 0);
    CHECK(d.has_groups && d.g == 4 && d.mb == 7);
    CHECK(d.in[CONV_H] == 5 && d.in[CONV_W] == 9);
    CHECK(d.out[CONV_H] == 5 && d.out[CONV_W] == 9);
    CHECK(d.pad[CONV_H] == 0 && d.pad[CONV_W] == 1 && d.pad_r[CONV_W] == 1);

    /* g1 written out is remembered: the weights get a groups dim. */
    CHECK(parse("g1ic3ih5oc4kh3", &d) == 0 && d.has_groups && d.g == 1);
}

static void test_ranks(void) {
    conv_desc_t d;
    /* Width entries only: 1D. */
    CHECK(parse("ic3iw10oc4kw3", &d) == 0 && d.ndims == 3);
    CHECK(d.in[CONV_W] == 10 && d.out[CONV_W] == 8);
    CHECK(d.in[CONV_H] == 1 && d.ker[CONV_H] == 1 && d.out[CONV_D] == 1);
    /* Depth entries only: a cubic 3D problem. */
    CHECK(parse("ic3id6oc4kd3pd1", &d) == 0 && d.ndims == 5);
    for (int i = 0; i < CONV_NSPATIAL; i++)
        CHECK(d.in[i] == 6 && d.ker[i] == 3 && d.pad[i] == 1 && d.out[i] == 6);
    /* Depth and height: width copies height, not depth. */
    CHECK(parse("ic3id6ih8oc4kd3kh5", &d) == 0 && d.ndims == 5);
    CHECK(d.in[CONV_W] == 8 && d.ker[CONV_W] == 5 && d.out[CONV_W] == 4);
    CHECK(d.out[CONV_D] == 4);
    /* Any entry of a dim counts: a depth stride makes the problem 3D. */
    CHECK(parse("ic3ih8oc4kh3sd1", &d) == -1 && strstr(err, "'id'"));
}

static void test_outputs_and_padding(void) {
    conv_desc_t d;
    /* Output from input, kernel, stride, padding, dilation:
     * ext = (3-1)*(1+1)+1 = 5, out = (10 + 2 - 5) / 2 + 1 = 4. */
    CHECK(parse("ic1ih10oc1kh3sh2ph1dh1", &d) == 0);
    CHECK(d.out[CONV_H] == 4 && d.pad_r[CONV_H] == 0);
    /* Padding from a given output: ((10-1)*1 - 10 + 3) / 2 = 1. */
    CHECK(parse("ic1ih10oc1oh10kh3", &d) == 0);
    CHECK(d.pad[CONV_H] == 1 && d.pad_r[CONV_H] == 1);
    /* Asymmetric: right padding follows from the rest. */
    CHECK(parse("ic32ih13oc13oh12kh3ph0", &d) == 0);
    CHECK(d.pad[CONV_H] == 0 && d.pad_r[CONV_H] == 1);
    /* A stride that leaves input unused: negative right padding. */
    CHECK(parse("ic1ih6oc1kh3sh2ph0", &d) == 0);
    CHECK(d.out[CONV_H] == 2 && d.pad_r[CONV_H] == -1);
    /* The same with the output given and no padding (ResNet-50's strided
     * 1x1 layers): (7-1)*2 - 14 + 1 = -1 halves to padding 0. */
    CHECK(parse("mb1ic1024ih14oc512oh7kh1sh2", &d) == 0);
    CHECK(d.pad[CONV_H] == 0 && d.pad_r[CONV_H] == -1);
    CHECK(rejected("ic3ih14oc4oh6kh1sh2", "'oh6'"));
    /* Padding larger than the kernel is a valid problem. */
    CHECK(parse("ic1ih4oc1kh1ph2", &d) == 0 && d.out[CONV_H] == 8);
    CHECK(conv_desc_kernel_extent(&d, CONV_H) == 1);
}

static void test_syntax(void) {
    conv_desc_t a, b;
    /* Entries in any order, with or without underscores. */
    CHECK(parse("ic3ih5oc4kh3", &a) == 0);
    CHECK(parse("kh3_oc4__ih5_ic3_", &b) == 0 && conv_desc_equal(&a, &b));
    /* The name runs to the end; one pair of quotes is dropped. */
    CHECK(parse("ic3ih5oc4kh3n\"alexnet:conv1\"", &a) == 0);
    CHECK(!strcmp(a.name, "alexnet:conv1"));
    CHECK(parse("ic3ih5oc4kh3_n'res2a*4'", &a) == 0);
    CHECK(!strcmp(a.name, "res2a*4"));
    CHECK(parse("ic3ih5oc4kh3nplain_name", &a) == 0);
    CHECK(!strcmp(a.name, "plain_name"));
    CHECK(parse("ic3ih5oc4kh3n", &a) == 0 && a.name[0] == '\0');
}

static void test_printing(void) {
    CHECK(prints_as("ic3ih5oc4kh3", "ic3ih5oc4oh3kh3ph0"));
    CHECK(prints_as("mb2ic3ih5iw5oc4kh3kw3", "ic3ih5oc4oh3kh3ph0"));
    CHECK(prints_as("mb1g2ic4ih5iw7oc4kh3kw3ph1pw1",
                    "g2mb1ic4ih5iw7oc4oh5ow7kh3kw3ph1pw1"));
    CHECK(prints_as("ic3ih9oc4kh3sh2dh1ph2", "ic3ih9oc4oh5kh3sh2ph2dh1"));
    CHECK(prints_as("ic3iw10oc4kw3", "ic3iw10oc4ow8kw3pw0"));
    CHECK(prints_as("ic3id6oc4kd3", "ic3id6oc4od4kd3pd0"));
    /* Not cubic: every dim, as oneDNN prints it. */
    CHECK(prints_as("ic3id6ih8oc4kd3kh3",
                    "ic3id6ih8iw8oc4od4oh6ow6kd3kh3kw3pd0ph0pw0"));
    CHECK(prints_as("ic3ih5oc4kh3n\"x:y\"", "ic3ih5oc4oh3kh3ph0n\"x:y\""));

    conv_desc_t d;
    char buf[256];
    CHECK(parse("ic3ih5oc4kh3", &d) == 0);
    conv_desc_print(&d, 1, buf, sizeof(buf));
    CHECK(!strcmp(buf, "mb2ic3ih5iw5oc4oh3ow3kh3kw3sh1sw1ph0pw0dh0dw0"));
    /* A short buffer truncates and stays terminated. */
    conv_desc_print(&d, 0, buf, 6);
    CHECK(!strcmp(buf, "ic3ih"));
}

static void test_round_trips(void) {
    static const char *const descs[] = {
            "ic3ih5oc4kh3",
            "g2mb1ic4ih5iw7oc4kh3kw3ph1pw1",
            "ic32ih13oc13oh12kh3ph0",
            "ic1ih6oc1kh3sh2ph0",
            "ic8ih9iw11oc8oh9ow11kh3kw3ph2pw1dh1dw0",
            "ic3iw10oc4kw3",
            "ic3id6oc4kd3pd1",
            "ic3id6ih8oc4kd3kh5",
            "g17mb16ic17id5oc17od5kd3pd1",
            "g1ic3ih227oc96oh55kh11sh4n\"a:b\"",
            "ic16id10ih13iw50oc16kd3kh3kw3pd1ph1pw1",
            "ic65id5ih1iw1oc65od5oh1ow1kd3kh1kw1pd1"};
    for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
        for (int canonical = 0; canonical <= 1; canonical++) {
            conv_desc_t a, b;
            char buf[256];
            if (!CHECK(parse(descs[i], &a) == 0))
                continue;
            conv_desc_print(&a, canonical, buf, sizeof(buf));
            int ok = parse(buf, &b) == 0 && conv_desc_equal(&a, &b);
            if (!ok)
                fprintf(stderr, "'%s' -> '%s' does not parse back\n", descs[i],
                        buf);
            CHECK(ok);
        }
    }
}

static void test_rejections(void) {
    CHECK(rejected("", "empty"));
    CHECK(rejected("ic3ihXoc4kh3", "ihXoc4kh3"));
    CHECK(rejected("ic3ih5oc4kh3q7", "'q7'"));
    CHECK(rejected("ic3ih5oc4kh-3", "kh-3"));
    CHECK(rejected("ih5oc4kh3", "'ic'"));
    CHECK(rejected("ic3oc4", "no spatial size"));
    CHECK(rejected("ic3ih5oc4", "'kh'"));
    CHECK(rejected("ic3oc4oh5kh3", "'ih'"));
    CHECK(rejected("g3ic4ih5oc6kh3", "'g3'"));
    CHECK(rejected("ic3ih5oc4kh7", "'kh7'"));
    CHECK(rejected("ic3ih10oc4oh2kh3", "'oh2'"));
    CHECK(rejected("ic3ih6oc4oh1kh3sh2ph0", "'oh1'"));
    CHECK(rejected("ic3ih5ih6oc4kh3", "'ih' given twice"));
    CHECK(rejected("ic3ih5oc4kh3sh0", "'sh0'"));
    CHECK(rejected("mb0ic3ih5oc4kh3", "'mb0'"));
    CHECK(rejected("ic0ih5oc4kh3", "'ic0'"));
    CHECK(rejected("ic3ih5oc4oh0kh3", "'oh0'"));
    CHECK(rejected("ic3ih99999999999999oc4kh3", "too large"));
    /* Entries within range whose derived sizes overflow: kernel extent,
     * the padding a given output needs, the right padding. */
    CHECK(rejected("ic8ih16oc8kh1099511627776dh1099511627776ph1099511627776",
                   "sizes along 'ih' overflow"));
    CHECK(rejected("ic8iw16oc8ow1099511627776kw3sw1099511627776",
                   "sizes along 'iw' overflow"));
    CHECK(rejected("ic8iw16oc8ow1099511627776kw3sw1099511627776pw0",
                   "sizes along 'iw' overflow"));
    CHECK(rejected("ic3ih5oc4kh3n\"abc", "unmatched quote"));
    CHECK(rejected("ic3ih5oc4kh3na\"b", "contains a quote"));
    /* The whole descriptor is quoted in the message too. */
    CHECK(rejected("ic3ih5oc4kh3q7", "'ic3ih5oc4kh3q7'"));
}

int main(void) {
    test_defaults_and_2d();
    test_ranks();
    test_outputs_and_padding();
    test_syntax();
    test_printing();
    test_round_trips();
    test_rejections();
    return check_failures() != 0;
}
