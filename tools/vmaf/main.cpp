// Placeholder until the CLI lands; replaced in the next commit.
#include <cstdio>
int main() { std::puts("vmaf-exact"); return 0; }
