#define BOOST_TEST_MODULE pos_serve
#include <boost/test/unit_test.hpp>
