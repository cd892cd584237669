"""`dragonkit serve`'s options: the language, the pool for the play app, the printed addresses."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dragonkit.cli import ServeOptions, voila_command

#: Each test starts a real server (and some Chromium): out of the development command.
pytestmark = pytest.mark.browser


def test_the_language_reaches_the_kernels_and_a_bad_one_is_refused():
    assert ServeOptions(lang="it").environment()["DRAGONKIT_LANG"] == "it"
    with pytest.raises(ValueError, match="--lang must be one of en, it"):
        ServeOptions(lang="fr").check()
    result = subprocess.run(
        [sys.executable, "-m", "dragonkit.cli", "serve", "--lang", "de", "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--lang" in result.stderr


def test_the_pool_preheats_the_play_app_only():
    command = voila_command(ServeOptions(pool=4), Path("notebooks"))
    flag = next(a for a in command if a.startswith("--VoilaKernelManager.kernel_pools_config="))
    pools = json.loads(flag.split("=", 1)[1])
    assert pools == {"play.ipynb": {"pool_size": 4}, "default": {"pool_size": 0}}
    assert not any("kernel_pools_config" in a for a in voila_command(ServeOptions(pool=0), Path("notebooks")))


def test_a_class_gets_a_pool_a_kernel_budget_and_kernels_that_end_with_their_page():
    options = ServeOptions()
    command = voila_command(options, Path("notebooks"))
    assert command[1:3] == ["-m", "dragonkit.server"] and options.pool == 2
    assert "--ClassroomVoila.max_kernels=0" in command  # 0: from the machine's memory
    assert "--ClassroomVoila.max_kernels_per_client=10" in command
    # a kernel whose page is gone goes within 60 s (45 idle, checked every 15); an open page's never
    assert "--MappingKernelManager.cull_idle_timeout=45" in command
    assert "--MappingKernelManager.cull_interval=15" in command
    assert "--MappingKernelManager.cull_connected=False" in command
    ServeOptions(max_kernels=4).check()  # the visitor's default limit (10) above the machine's is no error
    with pytest.raises(ValueError, match=re.escape("--pool (2) must be smaller than --max-kernels (2)")):
        ServeOptions(max_kernels=2).check()
    with pytest.raises(ValueError, match="--max-kernels must be >= 0"):
        ServeOptions(max_kernels=-1).check()


def test_the_addresses_carry_the_token():
    options = ServeOptions(ip="::1", port=9000, token="abcdefgh12")
    assert options.url == "http://[::1]:9000/voila/render/play.ipynb?token=abcdefgh12"
    assert options.index_url == "http://[::1]:9000/?token=abcdefgh12"
    italian = ServeOptions(port=9000, lang="it")
    assert italian.index_url == "http://127.0.0.1:9000/voila/tree/it"  # the Italian lessons


def test_only_v1_kernel_websockets_and_patient_pages():
    command = voila_command(ServeOptions(), Path("notebooks"))
    connection = "dragonkit.server.kernel_socket.V1OnlyWebsocketConnection"
    assert f"--Voila.kernel_websocket_connection_class={connection}" in command
    assert "--VoilaExecutor.iopub_timeout=120" in command  # a class arriving at once gets the app, late
