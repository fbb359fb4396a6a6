# The environment every Wine command of the tests runs with (sourced; $1 is the prefix).
# WINEDEBUG=-all: no fixme/err chatter on stderr. WINEDLLOVERRIDES disables mscoree and mshtml,
# so Wine never offers to download Wine Mono or Gecko. No DISPLAY: nothing here opens a window.
export WINEPREFIX=$1
export WINEARCH=win64
export WINEDEBUG=-all
export WINEDLLOVERRIDES='mscoree,mshtml='
unset DISPLAY
