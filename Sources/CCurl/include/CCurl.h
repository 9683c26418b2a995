#ifndef ENCORE_CCURL_H
#define ENCORE_CCURL_H

#include <curl/curl.h>

// libcurl's option and information calls are variadic (`curl_easy_setopt`,
// `curl_easy_getinfo`), which Swift cannot call: one fixed signature per argument type.

CURLcode encore_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode encore_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
/// Strings (copied by libcurl), lists and callback data.
CURLcode encore_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode encore_curl_set_write_function(CURL *handle, curl_write_callback function);
CURLcode encore_curl_set_header_function(CURL *handle, curl_write_callback function);
CURLcode encore_curl_set_progress_function(CURL *handle, curl_xferinfo_callback function);
/// Called once the connection is made, before the request is sent.
CURLcode encore_curl_set_prereq_function(CURL *handle, curl_prereq_callback function);
CURLcode encore_curl_get_long(CURL *handle, CURLINFO info, long *value);

#endif
