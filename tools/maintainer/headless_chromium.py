"""Headless Chromium driven through its DevTools protocol over a pipe (--remote-debugging-pipe),
with nothing but Python's standard library: no WebDriver, no websocket client. The maintainers'
page checks use it (check_bank_model_page.py, check_docs_screenshots.py).

    with Chromium() as browser:
        page = browser.open("file:///.../bank_model.html", width=1280, height=900)
        page.wait_for("document.readyState === 'complete'")
        print(page.evaluate("document.title"))
        page.screenshot("page.png")

Chromium writes its answers to file descriptor 4 and reads commands from 3, each a JSON message
ended by a NUL byte. Debian's chromium package provides `chromium`; as root it needs
--no-sandbox, which is given then.
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time


class ChromiumError(RuntimeError):
    """Chromium could not be started, or a command failed."""


def find_chromium():
    """The Chromium (or Chrome) executable on the PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Page:
    """One tab, attached through a flat session."""

    def __init__(self, browser, session):
        self.browser, self.session = browser, session

    def command(self, method, **params):
        return self.browser.command(method, session=self.session, **params)

    def evaluate(self, expression, await_promise=False):
        """The value of a JavaScript expression in the page (JSON-serialisable values only);
        raises ChromiumError with the page's message when it throws."""
        answer = self.command("Runtime.evaluate", expression=expression, returnByValue=True,
                              awaitPromise=await_promise)
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise ChromiumError(f"the page threw: {text}")
        return answer["result"].get("value")

    def wait_for(self, expression, timeout=30):
        """Waits until `expression` is true in the page; raises ChromiumError after `timeout` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.evaluate(expression):
                    return
            except ChromiumError:
                pass  # the page is not there yet
            time.sleep(0.05)
        raise ChromiumError(f"waited {timeout} s for {expression}")

    def screenshot(self, path, full_page=True):
        """Writes a PNG of the page: all of it (full_page) or the viewport."""
        params = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = self.command("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"],
                              "scale": 1}
        data = self.command("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


class Chromium:
    """A headless Chromium of its own profile, closed on exit from the `with` block."""

    def __init__(self, executable=None):
        self.executable = executable or find_chromium()
        if not self.executable:
            raise ChromiumError("no chromium on the PATH (Debian: apt-get install chromium)")
        self.process = None
        self.profile = None
        self.next_id = 0
        self.buffer = b""
        self.requested = []  # every URL a page opened with track_requests asked for

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="workbook-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def give_pipes():  # in the child: the protocol's descriptors are 3 and 4
            read_end, write_end = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        # --allow-file-access-from-files: a page opened from disk may read its own folder, as
        # a checker of SVG pictures in <object> elements must.
        flags = ["--headless", "--remote-debugging-pipe", "--disable-gpu",
                 "--allow-file-access-from-files",
                 "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                 "--force-device-scale-factor=1", "--font-render-hinting=none",
                 f"--user-data-dir={self.profile}", "about:blank"]
        if os.geteuid() == 0:
            flags.insert(0, "--no-sandbox")
        self.process = subprocess.Popen([self.executable] + flags, close_fds=False,
                                        preexec_fn=give_pipes, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        return self

    def __exit__(self, *exc):
        try:
            self.command("Browser.close")
        except (ChromiumError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self.to_browser, self.from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
        return False

    def command(self, method, session=None, **params):
        """Sends one protocol command and returns its result; events are passed over."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise ChromiumError(f"chromium is gone (exit status {self.process.poll()})")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise ChromiumError(f"chromium closed its pipe (exit status "
                                        f"{self.process.poll()})")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("method") == "Network.requestWillBeSent":
                self.requested.append(answer["params"]["request"]["url"])
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise ChromiumError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})

    def open(self, url, width=1280, height=900, track_requests=False):
        """A new tab of `width` x `height` CSS pixels showing `url`; with `track_requests`, every
        URL it asks for, itself included, is kept in `requested`."""
        target = self.command("Target.createTarget", url="about:blank")["targetId"]
        session = self.command("Target.attachToTarget", targetId=target,
                               flatten=True)["sessionId"]
        page = Page(self, session)
        page.command("Emulation.setDeviceMetricsOverride", width=width, height=height,
                     deviceScaleFactor=1, mobile=False)
        page.command("Page.enable")
        if track_requests:
            page.command("Network.enable")
        page.command("Page.navigate", url=url)
        page.wait_for("location.href !== 'about:blank' && document.readyState === 'complete'")
        return page
