#if canImport(SwiftUI)
import SwiftUI
#if canImport(CoreImage)
import CoreImage
import CoreImage.CIFilterBuiltins
#endif

/// The QR code of an `otpauth:` address, for authenticator apps to scan; nil where Core Image
/// is missing (the key is shown as text anyway).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
enum AuthenticatorQRCode {
    static func image(for text: String) -> Image? {
        #if canImport(CoreImage)
        let filter = CIFilter.qrCodeGenerator()
        filter.message = Data(text.utf8)
        filter.correctionLevel = "M"
        guard let output = filter.outputImage else { return nil }
        let scaled = output.transformed(by: CGAffineTransform(scaleX: 8, y: 8))
        guard let image = CIContext().createCGImage(scaled, from: scaled.extent) else { return nil }
        return Image(decorative: image, scale: 1)
        #else
        return nil
        #endif
    }
}
#endif
