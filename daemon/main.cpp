#include <cstdio>
int main() { std::puts("atoms-edge"); return 0; }
