import CognateCore

/// The hosted pages' CSS: a palette of custom properties for light and for dark mode (what a
/// managed login branding leaves unsaid), the layout that uses them, and the branding's own
/// values and images on top. Every value a branding gives was validated by ``HostedBranding``
/// (colours, pixels, `data:` URLs), so the style sheet it makes holds nothing else.
enum HostedPageTheme {
    /// The light palette: a white card on a pale page, in the blue of Cognito's managed login.
    /// Hover and focus colours follow the primary colour unless a branding names them.
    static let light: KeyValuePairs<String, String> = [
        "--page-bg": "#f2f4f7", "--form-bg": "#ffffff", "--form-border": "#dde1e6",
        "--text": "#414d5c", "--heading": "#000716", "--muted": "#5f6b7a",
        "--label": "#000716", "--hint": "#5f6b7a", "--placeholder": "#7d8998",
        "--primary-bg": "#0972d3", "--primary-text": "#ffffff",
        "--primary-hover-bg": "color-mix(in srgb, var(--primary-bg) 78%, #000000)", "--primary-hover-text": "var(--primary-text)",
        "--primary-active-bg": "color-mix(in srgb, var(--primary-bg) 64%, #000000)", "--primary-active-text": "var(--primary-text)",
        "--input-bg": "#ffffff", "--input-border": "#8c96a3",
        "--link": "var(--primary-bg)", "--link-hover": "color-mix(in srgb, var(--link) 70%, #000000)",
        "--focus": "var(--primary-bg)", "--divider": "#e9ebed",
        "--error-bg": "#fff7f7", "--error-border": "#d91515", "--error-indicator": "#d91515",
        "--success-bg": "#f2fcf3", "--success-border": "#037f0c", "--success-indicator": "#037f0c",
        "--option-selected": "var(--primary-bg)", "--option-border": "#8c96a3",
        "--header-bg": "#fafafa", "--header-border": "#d5dbdb", "--footer-bg": "#fafafa", "--footer-border": "#d5dbdb",
        "--card-shadow": "0 1px 2px rgba(0, 7, 22, 0.05), 0 12px 32px rgba(0, 7, 22, 0.07)",
    ]

    /// The dark palette (Cognito's managed login dark mode).
    static let dark: KeyValuePairs<String, String> = [
        "--page-bg": "#0a121c", "--form-bg": "#0f1b2a", "--form-border": "#2c3745",
        "--text": "#b6bec9", "--heading": "#e9ebed", "--muted": "#9ba7b6",
        "--label": "#d1d5db", "--hint": "#9ba7b6", "--placeholder": "#8d99a8",
        "--primary-bg": "#539fe5", "--primary-text": "#000716",
        "--primary-hover-bg": "color-mix(in srgb, var(--primary-bg) 75%, #ffffff)", "--primary-hover-text": "var(--primary-text)",
        "--primary-active-bg": "color-mix(in srgb, var(--primary-bg) 60%, #ffffff)", "--primary-active-text": "var(--primary-text)",
        "--input-bg": "#0a121c", "--input-border": "#5f6b7a",
        "--link": "var(--primary-bg)", "--link-hover": "color-mix(in srgb, var(--link) 70%, #ffffff)",
        "--focus": "var(--primary-bg)", "--divider": "#232b37",
        "--error-bg": "#1a0000", "--error-border": "#eb6f6f", "--error-indicator": "#eb6f6f",
        "--success-bg": "#001a02", "--success-border": "#29ad32", "--success-indicator": "#29ad32",
        "--option-selected": "var(--primary-bg)", "--option-border": "#7d8998",
        "--header-bg": "#0f141a", "--header-border": "#424650", "--footer-bg": "#0f141a", "--footer-border": "#424650",
        "--card-shadow": "0 12px 32px rgba(0, 0, 0, 0.35)",
    ]

    /// Radii and spacing (a branding's `borderRadius` and `spacingDensity` replace them).
    static let shared: KeyValuePairs<String, String> = [
        "--form-radius": "12px", "--button-radius": "8px", "--input-radius": "8px", "--alert-radius": "8px", "--space": "1rem",
    ]

    static let layout = """
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; background: var(--page-bg) center / cover no-repeat;
          color: var(--text); font: 400 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        .page { flex: 1 0 auto; display: flex; padding: calc(var(--space) * 2.5) var(--space); }
        .stack { width: 100%; max-width: 26.5rem; margin: auto; }
        .h-start .stack { margin-left: 0; } .h-end .stack { margin-right: 0; }
        .v-start .stack { margin-top: 0; } .v-end .stack { margin-bottom: 0; }
        @media (min-width: 40rem) { .h-start, .h-end { padding-left: 6vw; padding-right: 6vw; } }
        @media (max-width: 39.99rem) { .h-start .stack, .h-end .stack { margin-left: auto; margin-right: auto; } }
        .card { background: var(--form-bg) center / cover no-repeat; border: 1px solid var(--form-border); border-radius: var(--form-radius);
          box-shadow: var(--card-shadow); padding: calc(var(--space) * 2.25) calc(var(--space) * 2) calc(var(--space) * 2); }
        .logo-row { display: flex; justify-content: center; margin: 0 0 calc(var(--space) * 1.25); }
        .logo-row.start { justify-content: flex-start; } .logo-row.end { justify-content: flex-end; }
        .logo-row.bottom { margin: calc(var(--space) * 1.5) 0 0; }
        .stack > .logo-row { margin: 0 0 calc(var(--space) * 1.25); } .stack > .logo-row.bottom { margin: calc(var(--space) * 1.25) 0 0; }
        .logo-row img, .logo-customizable { display: block; max-width: 100%; max-height: 4rem; height: auto; }
        .app-name { margin: 0 0 calc(var(--space) * 0.5); text-align: center; color: var(--muted); font-size: 0.9375rem; font-weight: 600;
          letter-spacing: 0.01em; overflow-wrap: anywhere; }
        .graphic { display: block; max-width: 100%; max-height: 5rem; margin: 0 auto var(--space); }
        h1 { margin: 0; color: var(--heading); font-size: 1.625rem; line-height: 1.25; font-weight: 700; text-align: center;
          letter-spacing: -0.01em; overflow-wrap: anywhere; }
        .lead { margin: calc(var(--space) * 0.625) 0 0; color: var(--muted); text-align: center; overflow-wrap: anywhere; }
        .alert { display: flex; gap: 0.625rem; align-items: flex-start; margin: calc(var(--space) * 1.25) 0 0; padding: 0.75rem 0.875rem;
          border: 1px solid; border-radius: var(--alert-radius); color: var(--heading); font-size: 0.9375rem; overflow-wrap: anywhere; }
        .alert::before { flex: none; width: 1.25rem; height: 1.25rem; margin-top: 0.0625rem; border-radius: 50%; color: #ffffff;
          font: 700 0.8125rem/1.25rem system-ui, sans-serif; text-align: center; }
        .alert.error { background: var(--error-bg); border-color: var(--error-border); }
        .alert.error::before { content: "!"; background: var(--error-indicator); }
        .alert.notice { background: var(--success-bg); border-color: var(--success-border); }
        .alert.notice::before { content: "\\2713"; background: var(--success-indicator); }
        form { margin: 0; }
        .field { margin-top: calc(var(--space) * 1.125); }
        label { display: block; margin-bottom: 0.375rem; color: var(--label); font-size: 0.9375rem; font-weight: 600; }
        input[type=text], input[type=email], input[type=tel], input[type=password] { display: block; width: 100%; margin: 0;
          padding: 0.625rem 0.75rem; border: 1px solid var(--input-border); border-radius: var(--input-radius);
          background: var(--input-bg); color: var(--heading); font: inherit; }
        input::placeholder { color: var(--placeholder); }
        input:focus { outline: 2px solid var(--focus); outline-offset: 1px; border-color: var(--focus); }
        input.code { font-size: 1.375rem; letter-spacing: 0.3em; text-align: center; font-variant-numeric: tabular-nums; }
        .rules { margin: 0.5rem 0 0; padding: 0; list-style: none; color: var(--hint); font-size: 0.875rem; }
        .rules p { margin: 0 0 0.125rem; }
        .rules ul { margin: 0; padding: 0 0 0 1.125rem; }
        .field-link { margin: 0.5rem 0 0; font-size: 0.9375rem; }
        .primary { display: block; box-sizing: border-box; width: 100%; text-align: center; text-decoration: none; margin: calc(var(--space) * 1.5) 0 0; padding: 0.6875rem 1rem; border: 1px solid var(--primary-bg);
          border-radius: var(--button-radius); background: var(--primary-bg); color: var(--primary-text); font: inherit; font-weight: 700;
          cursor: pointer; }
        .primary:hover { background: var(--primary-hover-bg); border-color: var(--primary-hover-bg); color: var(--primary-hover-text); }
        .idp-button { display: block; box-sizing: border-box; width: 100%; text-align: center; padding: 0.6875rem 1rem; border: 1px solid var(--input-border);
          border-radius: var(--button-radius); font-weight: 600; text-decoration: none; }
        .primary:active { background: var(--primary-active-bg); border-color: var(--primary-active-bg); color: var(--primary-active-text); }
        .primary:focus-visible, .link-button:focus-visible, a:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
        a, .link-button { color: var(--link); font-weight: 600; text-decoration: none; }
        a:hover, .link-button:hover { color: var(--link-hover); text-decoration: underline; }
        a.primary:hover { text-decoration: none; }
        .link-button { display: inline; margin: 0; padding: 0; border: 0; background: none; font: inherit; font-weight: 600; cursor: pointer; }
        .alternatives { margin: calc(var(--space) * 1.75) 0 0; padding: calc(var(--space) * 1.25) 0 0; border-top: 1px solid var(--divider);
          color: var(--muted); font-size: 0.9375rem; text-align: center; }
        .alternatives p { margin: 0; } .alternatives p + p, .alternatives form + p, .alternatives p + form, .alternatives form + form { margin-top: 0.5rem; }
        .terms { margin: var(--space) 0 0; color: var(--hint); font-size: 0.875rem; }
        .qr { width: 12.5rem; max-width: 100%; margin: calc(var(--space) * 1.25) auto 0; padding: 0.75rem; border: 1px solid var(--divider);
          border-radius: var(--input-radius); background: #ffffff; }
        .qr svg { display: block; width: 100%; height: auto; }
        .key { margin: var(--space) 0 0; text-align: center; color: var(--muted); font-size: 0.875rem; }
        .secret { display: block; margin-top: 0.375rem; padding: 0.5rem; border: 1px dashed var(--input-border); border-radius: var(--input-radius);
          color: var(--heading); font: 600 0.9375rem/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; letter-spacing: 0.06em; }
        .secret span { display: inline-block; margin: 0 0.3em; }
        fieldset { min-width: 0; margin: calc(var(--space) * 1.25) 0 0; padding: 0; border: 0; }
        legend { padding: 0; margin-bottom: 0.25rem; color: var(--label); font-weight: 600; }
        .choice { display: flex; gap: 0.75rem; align-items: center; margin: 0.5rem 0 0; padding: 0.75rem 0.875rem; font-weight: 600;
          border: 1px solid var(--option-border); border-radius: var(--input-radius); background: var(--input-bg); cursor: pointer; }
        .choice:has(input:checked) { border-color: var(--option-selected); box-shadow: inset 0 0 0 1px var(--option-selected); }
        .choice input { flex: none; width: 1.125rem; height: 1.125rem; margin: 0; accent-color: var(--option-selected); }
        .choice span span { display: block; color: var(--hint); font-size: 0.875rem; font-weight: 400; }
        .details { margin: var(--space) 0 0; color: var(--hint); font-size: 0.8125rem; text-align: center; overflow-wrap: anywhere; }
        .bar { display: flex; align-items: center; min-height: 3.5rem; padding: 0.625rem 1.5rem; background: var(--header-bg) center / cover no-repeat; }
        .bar.center { justify-content: center; } .bar.end { justify-content: flex-end; }
        .bar img { display: block; max-height: 2.25rem; max-width: 60vw; }
        header.bar { border-bottom: 1px solid var(--header-border); }
        footer.bar { border-top: 1px solid var(--footer-border); background-color: var(--footer-bg); }
        @media (max-width: 30rem) {
          .page { padding: var(--space) 0.75rem; }
          .card { padding: calc(var(--space) * 1.75) calc(var(--space) * 1.25) calc(var(--space) * 1.5); }
          h1 { font-size: 1.4375rem; }
        }
        """

    /// The style sheet of a page: the palette of the branding's colour scheme (light unless it
    /// says DARK, both by `prefers-color-scheme` when DYNAMIC), its values, the layout, its
    /// images, then the UI customization's CSS (which cannot close the style element).
    static func css(branding: HostedBranding?, customCSS: String?) -> String {
        let branding = branding ?? HostedBranding()
        func block(_ selector: String, _ pairs: [(String, String)]) -> String {
            pairs.isEmpty ? "" : "\(selector) { " + pairs.map { "\($0.0): \($0.1);" }.joined(separator: " ") + " }\n"
        }
        func pairs(_ values: KeyValuePairs<String, String>) -> [(String, String)] { values.map { ($0.key, $0.value) } }
        func sorted(_ values: [String: String]) -> [(String, String)] { values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        let lightPalette = block(":root", pairs(light)) + block(":root", sorted(branding.light))
        let darkPalette = block(":root", pairs(dark)) + block(":root", sorted(branding.dark))
        var sheet = ""
        switch branding.scheme {
        case .light: sheet += ":root { color-scheme: light; }\n" + lightPalette
        case .dark: sheet += ":root { color-scheme: dark; }\n" + darkPalette
        case .dynamic:
            sheet += ":root { color-scheme: light dark; }\n" + lightPalette
            sheet += "@media (prefers-color-scheme: dark) {\n" + darkPalette + "}\n"
        }
        sheet += block(":root", pairs(shared)) + block(":root", sorted(branding.shared)) + layout + "\n"
        var images: [(selector: String, image: HostedBranding.Image)] = []
        if let image = branding.pageBackground { images.append(("body", image)) }
        if let image = branding.formBackground { images.append((".card", image)) }
        if let image = branding.header?.background { images.append(("header.bar", image)) }
        if let image = branding.footer?.background { images.append(("footer.bar", image)) }
        func background(_ selector: String, _ url: String?) -> String {
            "\(selector) { background-image: \(url.map { "url(\"\($0)\")" } ?? "none"); }"
        }
        for (selector, image) in images {
            switch branding.scheme {
            case .light: sheet += background(selector, image.light) + "\n"
            case .dark: sheet += background(selector, image.dark) + "\n"
            case .dynamic:
                sheet += background(selector, image.light) + "\n"
                if image.dark != image.light {
                    sheet += "@media (prefers-color-scheme: dark) { " + background(selector, image.dark) + " }\n"
                }
            }
        }
        if branding.scheme == .dynamic {
            sheet += "@media (prefers-color-scheme: dark) { .light-only { display: none; } }\n"
            sheet += "@media (prefers-color-scheme: light) { .dark-only { display: none; } }\n"
        }
        if let customCSS, !customCSS.isEmpty {
            sheet += customCSS.replacingOccurrences(of: "<", with: "\\3c ") + "\n"    // a CSS escape: no tag can start
        }
        return sheet
    }
}
